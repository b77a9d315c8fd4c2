/**
 * The roofline model: number formats ({@link dev.roofline.core.precision}) and their bit-exact codecs
 * ({@link dev.roofline.core.format}), GPU specifications ({@link dev.roofline.core.hardware}), predictions for
 * operators ({@link dev.roofline.core.roofline}), transformer models ({@link dev.roofline.core.model}) and their
 * whole-model predictions ({@link dev.roofline.core.transformer}), and the energy-metering service GPU modules
 * implement ({@link dev.roofline.core.energy}). No runtime dependencies.
 */
module dev.roofline.core {
    exports dev.roofline.core.precision;
    exports dev.roofline.core.format;
    exports dev.roofline.core.hardware;
    exports dev.roofline.core.roofline;
    exports dev.roofline.core.model;
    exports dev.roofline.core.transformer;
    exports dev.roofline.core.recommend;
    exports dev.roofline.core.tiling;
    exports dev.roofline.core.report;
    exports dev.roofline.core.energy;
    // the calculator view, reused by roofline-cuda's command line (which adds measurements)
    exports dev.roofline.core.cli to dev.roofline.cuda;

    // PowerMeters looks meters up here; roofline-nvml provides one
    uses dev.roofline.core.energy.PowerMeter;
}
