package dev.roofline.cuda.cli;

import dev.roofline.core.cli.Arguments;
import dev.roofline.core.cli.Command;
import dev.roofline.core.cli.Converters;
import dev.roofline.core.cli.Option;
import dev.roofline.core.model.ConfigJson;
import dev.roofline.core.model.Model;
import dev.roofline.core.model.Models;
import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.bench.DecodeStepBenchmark;
import dev.roofline.cuda.bench.GemvBenchmarkOptions;
import dev.roofline.cuda.kernels.WeightFormat;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code roofline decode-bench [MODEL|config.json]}: one decode step of a dense model at batch 1 on the GPU, random
 * weights in each format, beside the whole-model roofline prediction ({@link DecodeStepBenchmark}).
 */
public final class DecodeBenchCommand implements Command {
    static final Option<List<WeightFormat>> WEIGHTS = Option.of(
            "--weights",
            "F[,F...]",
            "weight formats of the linear layers",
            "FP16,FP8_E4M3,NVFP4",
            (option, value) -> GemvBenchmarkOptions.parseFormats(value));
    static final Option<List<Integer>> CONTEXT = Option.of(
            "--context", "T[,T...]", "tokens in the KV cache, this step's included", "1024", Converters.positiveInts());
    static final Option<Double> THETA = Option.of("--rope-theta", "THETA", "RoPE base", "500000", Converters.number());

    @Override
    public String name() {
        return "decode-bench";
    }

    @Override
    public String summary() {
        return "one decode step of a dense model at batch 1 on this GPU beside its roofline prediction";
    }

    @Override
    public List<String> operands() {
        return List.of("model|config.json");
    }

    @Override
    public String synopsis() {
        return name() + " [model|config.json] [options]";
    }

    @Override
    public List<Option<?>> options() {
        return List.of(WEIGHTS, CONTEXT, THETA);
    }

    @Override
    public void run(Arguments args, PrintStream out, PrintStream err) throws IOException {
        List<String> operands = args.operands();
        String name = operands.isEmpty() ? "llama-3-8b" : operands.getFirst(); // Llama-3-8B unless named
        Model model = Files.exists(Path.of(name)) ? ConfigJson.read(Path.of(name)) : Models.byName(name);
        if (!Cuda.isAvailable()) {
            throw new IllegalStateException(Cuda.unavailableReason().orElseThrow() + " - nothing measured");
        }
        for (DecodeStepBenchmark.Result r :
                DecodeStepBenchmark.run(Cuda.device(0), model, args.get(WEIGHTS), args.get(CONTEXT), args.get(THETA))) {
            out.println(r);
        }
    }
}
