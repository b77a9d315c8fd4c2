package dev.roofline.cuda.cli;

import dev.roofline.core.calibration.Calibration;
import dev.roofline.core.cli.Arguments;
import dev.roofline.core.cli.Command;
import dev.roofline.core.cli.Converters;
import dev.roofline.core.cli.Option;
import dev.roofline.core.cli.UsageException;
import dev.roofline.core.hardware.Interconnect;
import dev.roofline.core.model.ConfigJson;
import dev.roofline.core.model.Model;
import dev.roofline.core.model.Models;
import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.bench.ReportFormat;
import dev.roofline.cuda.bench.TensorParallelBenchmark;
import dev.roofline.cuda.decode.DecoderShape;
import dev.roofline.cuda.decode.DenseDecoder;
import dev.roofline.cuda.kernels.GemvKernels;
import dev.roofline.cuda.kernels.WeightFormat;
import dev.roofline.cuda.nccl.Communicators;
import dev.roofline.cuda.nccl.Nccl;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code roofline tp-decode [MODEL|config.json] --gpus N}: a tensor-parallel decode step on this host's first N GPUs
 * (NCCL all-reduces after attention and the MLP), measured and set beside its prediction, datasheet and calibrated
 * ({@link TensorParallelBenchmark}).
 */
public final class TpDecodeCommand implements Command {
    static final Option<Long> GPUS =
            Option.of("--gpus", "N", "tensor-parallel GPUs: devices 0..N-1", "2", Converters.positiveLong());
    static final Option<Path> CALIBRATION = Option.of(
            "--calibration",
            "FILE",
            "a calibration (roofline decode --calibrate, with roofline nccl-bench's collectives) to predict with",
            null,
            Converters.path());

    @Override
    public String name() {
        return "tp-decode";
    }

    @Override
    public String summary() {
        return "a tensor-parallel decode step on several GPUs (NCCL) beside its prediction";
    }

    @Override
    public List<String> operands() {
        return List.of("model|config.json");
    }

    @Override
    public List<Option<?>> options() {
        return List.of(
                DecodeCommand.WEIGHTS,
                DecodeCommand.BATCH,
                DecodeCommand.CONTEXT,
                GPUS,
                NcclBenchCommand.LINK,
                CALIBRATION,
                DecodeCommand.THETA,
                NcclBenchCommand.FORMAT);
    }

    @Override
    public void run(Arguments args, PrintStream out, PrintStream err) throws IOException {
        List<String> operands = args.operands();
        String name = operands.isEmpty() ? "llama-3-8b" : operands.getFirst();
        Model model = Files.exists(Path.of(name)) ? ConfigJson.read(Path.of(name)) : Models.byName(name);
        int gpus = Math.toIntExact(args.get(GPUS));
        try {
            DecoderShape.of(model).shard(gpus);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--gpus " + gpus + ": " + e.getMessage());
        }
        List<WeightFormat> formats = args.get(DecodeCommand.WEIGHTS);
        for (WeightFormat f : formats) {
            for (int b : args.get(DecodeCommand.BATCH)) {
                if (!DenseDecoder.runs(f, b)) {
                    throw new UsageException("--batch " + b + ": the decoder runs " + f + " weights at up to "
                            + GemvKernels.MAX_ROWS + " sequences (FP16 at any batch)");
                }
            }
        }
        Interconnect link = args.get(NcclBenchCommand.LINK);
        Calibration calibration = null;
        if (args.has(CALIBRATION)) {
            try {
                calibration = Calibration.read(args.get(CALIBRATION));
            } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
                throw new UsageException("--calibration: " + e.getMessage());
            }
            eagerFitWarning(calibration, gpus).ifPresent(err::println);
        }
        if (!Nccl.isAvailable()) {
            throw new IllegalStateException(Nccl.unavailableReason().orElseThrow() + " - nothing measured");
        }
        if (gpus > Cuda.deviceCount()) {
            throw new UsageException("--gpus " + gpus + ": this host has " + Cuda.deviceCount());
        }
        TensorParallelBenchmark.Results r;
        try (Communicators comms = Communicators.ofFirstDevices(gpus)) {
            r = TensorParallelBenchmark.run(
                    comms,
                    model,
                    formats,
                    args.get(DecodeCommand.BATCH),
                    args.get(DecodeCommand.CONTEXT),
                    args.get(DecodeCommand.THETA),
                    link,
                    calibration);
        }
        out.print(r.render(ReportFormat.parse(args.get(NcclBenchCommand.FORMAT))));
    }

    /**
     * A warning when the all-reduce fit for {@code gpus} GPUs was not measured from a CUDA graph: the decode step is
     * graphed, and an eagerly launched collective's latency includes the host's launch cost the graph does not pay.
     */
    static java.util.Optional<String> eagerFitWarning(Calibration calibration, int gpus) {
        return calibration
                .collective(dev.roofline.core.parallel.Collective.Op.ALL_REDUCE, gpus)
                .filter(f -> f.launch() != dev.roofline.core.parallel.CollectiveFit.Launch.GRAPH)
                .map(f -> "roofline tp-decode: warning: the calibration's all-reduce fit on " + gpus + " GPUs was "
                        + (f.launch() == dev.roofline.core.parallel.CollectiveFit.Launch.EAGER
                                ? "measured with eager launches"
                                : "measured without saying how it was launched")
                        + "; the decode step is graphed (roofline nccl-bench --launch graph measures it alike)");
    }
}
