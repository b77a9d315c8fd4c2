/**
 * The roofline model: number formats ({@link dev.roofline.core.precision}) and their bit-exact codecs
 * ({@link dev.roofline.core.format}), GPU specifications ({@link dev.roofline.core.hardware}), predictions for
 * operators ({@link dev.roofline.core.roofline}), transformer models ({@link dev.roofline.core.model}) and their
 * whole-model predictions ({@link dev.roofline.core.transformer}), collectives between GPUs
 * ({@link dev.roofline.core.parallel}), those predictions calibrated by a GPU run
 * ({@link dev.roofline.core.calibration}), and the energy-metering service GPU modules
 * implement ({@link dev.roofline.core.energy}). No runtime dependencies. {@code roofline <command>}
 * ({@link dev.roofline.core.cli.Main}) runs the commands found with {@link java.util.ServiceLoader}.
 */
module dev.roofline.core {
    exports dev.roofline.core.precision;
    exports dev.roofline.core.format;
    exports dev.roofline.core.hardware;
    exports dev.roofline.core.roofline;
    exports dev.roofline.core.model;
    exports dev.roofline.core.transformer;
    exports dev.roofline.core.parallel;
    exports dev.roofline.core.calibration;
    exports dev.roofline.core.recommend;
    exports dev.roofline.core.tiling;
    exports dev.roofline.core.report;
    exports dev.roofline.core.energy;
    // the command-line SPI and dispatcher: other modules add commands, core's own are in an unexported package
    exports dev.roofline.core.cli;
    // JSON reading and quoting for records roofline-cuda writes; not public API
    exports dev.roofline.core.internal to
            dev.roofline.cuda;

    // PowerMeters looks meters up here; roofline-nvml provides one
    uses dev.roofline.core.energy.PowerMeter;
    uses dev.roofline.core.cli.Command;

    provides dev.roofline.core.cli.Command with
            dev.roofline.core.cli.command.PredictCommand,
            dev.roofline.core.cli.command.ModelCommand,
            dev.roofline.core.cli.command.RecommendCommand,
            dev.roofline.core.cli.command.PlotCommand,
            dev.roofline.core.cli.command.ReportCommand,
            dev.roofline.core.cli.command.HardwareCommand,
            dev.roofline.core.cli.command.PrecisionsCommand,
            dev.roofline.core.cli.command.ServeCommand;
}
