package dev.roofline.quant.checkpoint;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roofline.quant.block.ErrorMetrics;
import dev.roofline.quant.block.Fp8Tensor;
import dev.roofline.quant.block.Nvfp4Quantizer;
import dev.roofline.quant.block.QuantizedTensor;
import dev.roofline.quant.block.Quantizers;
import dev.roofline.quant.safetensors.SafetensorsFile;
import dev.roofline.quant.safetensors.SafetensorsWriter;
import dev.roofline.quant.safetensors.ShardedCheckpoint;
import dev.roofline.quant.safetensors.TensorInfo;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Turns a Hugging Face model directory (config.json + safetensors, sharded or not) into a quantized checkpoint that
 * serving stacks load: NVFP4 in ModelOpt's or compressed-tensors' layout, or FP8 per tensor or per channel.
 *
 * <pre>{@code
 * CheckpointResult r = CheckpointQuantizer.newBuilder(QuantTarget.NVFP4_MODELOPT)
 *         .progress(System.out::println)
 *         .build()
 *         .quantize(Path.of("Llama-3-8B"), Path.of("Llama-3-8B-NVFP4"));
 * }</pre>
 *
 * Only linear weights are quantized ({@link LinearSelector}); everything else is copied bit for bit, and every other
 * file of the directory (tokenizer, generation config) is copied. Weights are read, quantized and written one tensor
 * at a time, so memory is bounded by the largest tensor. The output appears atomically: it is written to a hidden
 * sibling directory and renamed at the end; after a failure, Ctrl-C or SIGTERM nothing is left ({@link PartialOutput}).
 * A weight with a NaN or an infinity stops the run ({@link UnquantizableWeightException}); a weight the format cannot
 * hold (NVFP4 with K % 16 != 0) is kept as it is, reported to {@link Builder#warnings} and listed with the excluded
 * modules ({@code exclude_modules} / {@code ignore}), so that serving stacks load it unquantized. Activation scales are not calibrated:
 * the checkpoint holds weight scales only.
 */
public final class CheckpointQuantizer {
    /** Shard size of the output, as Hugging Face writes them. */
    public static final long DEFAULT_MAX_SHARD_BYTES = 5L * 1000 * 1000 * 1000;

    private final QuantTarget target;
    private final LinearSelector selector;
    private final Consumer<String> progress;
    private final Consumer<String> warnings;
    private final long maxShardBytes;
    private final boolean fourOverSix;

    private CheckpointQuantizer(Builder b) {
        this.target = b.target;
        this.selector = b.selector;
        this.progress = b.progress;
        this.warnings = b.warnings;
        this.maxShardBytes = b.maxShardBytes;
        this.fourOverSix = b.fourOverSix;
    }

    public static Builder newBuilder(QuantTarget target) {
        if (target == null) {
            throw new IllegalArgumentException("target must not be null");
        }
        return new Builder(target);
    }

    /**
     * @param modelDir  directory with config.json and model.safetensors or model.safetensors.index.json
     * @param outputDir must not exist yet, its parent must; created atomically (see {@link PartialOutput} for what
     *                  an interrupted run leaves and how the next one cleans it up)
     * @throws UnquantizableWeightException if a weight holds a NaN or an infinity
     * @throws java.nio.file.FileAlreadyExistsException if {@code outputDir} exists
     * @throws java.nio.file.NoSuchFileException if the parent of {@code outputDir} does not exist
     */
    public CheckpointResult quantize(Path modelDir, Path outputDir) throws IOException {
        if (!Files.isDirectory(modelDir)) {
            throw new IllegalArgumentException("modelDir is not a directory: " + modelDir);
        }
        if (Files.exists(outputDir, LinkOption.NOFOLLOW_LINKS)) {
            throw new FileAlreadyExistsException(
                    outputDir.toString(), null, "outputDir already exists, refusing to overwrite it");
        }
        HfConfig config = HfConfig.read(modelDir.resolve("config.json"));
        try (PartialOutput partial = PartialOutput.create(outputDir, warnings);
                ShardedCheckpoint in = ShardedCheckpoint.open(modelDir)) {
            CheckpointResult r = write(config, in, partial.folder(), outputDir);
            partial.commit();
            progress.accept(String.format(
                    Locale.ROOT,
                    "wrote %s: %d weights quantized to %s, %d tensors copied, %.3f GB -> %.3f GB",
                    outputDir,
                    r.quantized(),
                    target,
                    r.copied(),
                    r.inputBytes() / 1e9,
                    r.outputBytes() / 1e9));
            return r;
        }
    }

    private CheckpointResult write(HfConfig config, ShardedCheckpoint in, Path temp, Path outputDir)
            throws IOException {
        SafetensorsWriter w = SafetensorsWriter.create().metadata("format", "pt");
        List<String> excluded = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        List<String> names = in.names();
        int total = 0;
        for (String name : names) {
            TensorInfo t = in.tensor(name);
            total += selector.quantizes(t) && fits(t) ? 1 : 0;
        }
        Stats stats = new Stats(total);
        long inputBytes = 0;
        int copied = 0;
        for (String name : names) {
            SafetensorsFile file = in.fileOf(name);
            TensorInfo t = file.tensor(name);
            inputBytes += t.byteSize();
            if (selector.quantizes(t) && fits(t)) {
                addQuantized(w, file, t, stats);
            } else {
                if (selector.quantizes(t)) {
                    skipped.add(LinearSelector.module(name));
                    warnings.accept("warning: " + name + " " + t.shape() + " stays " + t.dtype() + ": " + target
                            + " needs K (the last dimension) to be a multiple of 16; listed in "
                            + (target == QuantTarget.NVFP4_MODELOPT ? "exclude_modules" : "ignore"));
                }
                w.add(file, t);
                copied++;
                if (name.endsWith(".weight") && t.shape().size() == 2) {
                    excluded.add(LinearSelector.module(name));
                }
            }
        }
        long outputBytes = w.dataBytes();
        w.writeSharded(temp, maxShardBytes);
        copyOtherFiles(in.directory(), temp);
        ObjectNode json = config.json().deepCopy();
        json.set("quantization_config", QuantizationConfigs.quantizationConfig(target, excluded));
        HfConfig.MAPPER
                .writerWithDefaultPrettyPrinter()
                .writeValue(temp.resolve("config.json").toFile(), json);
        if (target == QuantTarget.NVFP4_MODELOPT) {
            HfConfig.MAPPER
                    .writerWithDefaultPrettyPrinter()
                    .writeValue(
                            temp.resolve("hf_quant_config.json").toFile(), QuantizationConfigs.hfQuantConfig(excluded));
        }
        return new CheckpointResult(
                outputDir,
                stats.count,
                copied,
                skipped,
                inputBytes,
                outputBytes,
                stats.count == 0 ? Double.NaN : stats.worst,
                stats.count == 0 ? Double.NaN : stats.sum / stats.count);
    }

    /**
     * Whether the target format can hold the weight. NVFP4 needs K % 16 == 0; a weight that breaks it is kept in its
     * own dtype and listed with the excluded modules rather than padded: ModelOpt pads K with zeros, but then the
     * stored shape differs from the model's and a loader must know to cut it.
     */
    private boolean fits(TensorInfo t) {
        return Quantizers.fits(target.precision(), Math.toIntExact(t.shape().get(1)));
    }

    /** Adds the tensors of one quantized weight; the weight is quantized once, when the first of them is written. */
    private void addQuantized(SafetensorsWriter w, SafetensorsFile file, TensorInfo t, Stats stats) {
        int rows = Math.toIntExact(t.shape().get(0));
        int cols = Math.toIntExact(t.shape().get(1));
        QuantizedLayer layer = new QuantizedLayer(() -> {
            float[] values = file.floats(t.name());
            QuantizedTensor q;
            try {
                q = quantize(values, rows, cols);
            } catch (IllegalArgumentException e) { // the shape fits (see fits), so the values are not finite
                throw new UnquantizableWeightException(
                        t.name(), file.path() + ": tensor '" + t.name() + "' " + t.shape() + ": " + e.getMessage(), e);
            }
            double sqnr = ErrorMetrics.of(values, q.dequantize()).sqnrDb();
            stats.add(sqnr);
            progress.accept(String.format(
                    Locale.ROOT,
                    "[%d/%d] %s [%d, %d] %s -> %s, SQNR %.1f dB",
                    stats.count,
                    stats.total,
                    t.name(),
                    rows,
                    cols,
                    t.dtype(),
                    target,
                    sqnr));
            return q;
        });
        String module = LinearSelector.module(t.name());
        for (LayerTensors.Output o : LayerTensors.of(target, module, rows, cols)) {
            layer.uses++;
            w.add(o.name(), o.dtype(), o.shape(), out -> out.write(layer.bytes(o)));
        }
    }

    private QuantizedTensor quantize(float[] values, int rows, int cols) {
        return switch (target) {
            case NVFP4_MODELOPT, NVFP4_COMPRESSED_TENSORS ->
                (fourOverSix ? Nvfp4Quantizer.fourOverSix() : Nvfp4Quantizer.modelOpt()).quantize(values, rows, cols);
            case FP8_PER_TENSOR -> Fp8Tensor.quantize(target.precision(), values, rows, cols, false);
            case FP8_PER_CHANNEL -> Fp8Tensor.quantize(target.precision(), values, rows, cols, true);
        };
    }

    private static void copyOtherFiles(Path from, Path to) throws IOException {
        try (var files = Files.list(from)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String n = p.getFileName().toString();
                if (Files.isRegularFile(p)
                        && !n.endsWith(".safetensors")
                        && !n.equals(ShardedCheckpoint.INDEX_FILE)
                        && !n.equals("hf_quant_config.json")) {
                    Files.copy(p, to.resolve(n));
                }
            }
        }
    }

    /** Running SQNR statistics of the quantized weights. */
    private static final class Stats {
        final int total;
        int count;
        double worst = Double.POSITIVE_INFINITY;
        double sum;

        Stats(int total) {
            this.total = total;
        }

        synchronized void add(double sqnr) {
            count++;
            worst = Math.min(worst, sqnr);
            sum += sqnr;
        }
    }

    /** Options for {@link CheckpointQuantizer}. */
    public static final class Builder {
        private final QuantTarget target;
        private LinearSelector selector = LinearSelector.defaults();
        private Consumer<String> progress = s -> {};
        private Consumer<String> warnings = s -> {};
        private long maxShardBytes = DEFAULT_MAX_SHARD_BYTES;
        private boolean fourOverSix;

        private Builder(QuantTarget target) {
            this.target = target;
        }

        /** Also keep tensors whose names contain any of these substrings unquantized. */
        public Builder exclude(String... substrings) {
            selector = selector.excluding(substrings);
            return this;
        }

        /** Replaces the default exclusions entirely. */
        public Builder selector(LinearSelector s) {
            if (s == null) {
                throw new IllegalArgumentException("selector must not be null");
            }
            selector = s;
            return this;
        }

        /** Receives one line per quantized weight and a summary. */
        public Builder progress(Consumer<String> sink) {
            if (sink == null) {
                throw new IllegalArgumentException("progress must not be null");
            }
            progress = sink;
            return this;
        }

        /**
         * Receives one line per weight the format cannot hold (kept unquantized and listed with the excluded modules)
         * and per stale partial output of an interrupted run that was removed. Default: none.
         */
        public Builder warnings(Consumer<String> sink) {
            if (sink == null) {
                throw new IllegalArgumentException("warnings must not be null");
            }
            warnings = sink;
            return this;
        }

        public Builder maxShardBytes(long bytes) {
            if (bytes <= 0) {
                throw new IllegalArgumentException("maxShardBytes must be > 0, got " + bytes);
            }
            maxShardBytes = bytes;
            return this;
        }

        /** NVFP4 only: the per-block choice between scaling the block maximum to 6 or to 4. */
        public Builder fourOverSix(boolean on) {
            if (on && target.precision() != dev.roofline.core.precision.Precision.NVFP4) {
                throw new IllegalArgumentException("fourOverSix applies to NVFP4 targets, not " + target);
            }
            fourOverSix = on;
            return this;
        }

        public CheckpointQuantizer build() {
            return new CheckpointQuantizer(this);
        }
    }
}
