package dev.roofline.core.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class ModelCommandTest {

    @Test
    void modelPrintsSummaryMemoryCrossoverAndTable() {
        MainTest.Run r = MainTest.run("model", "llama-3-8b", "--hw", "gb10", "--batch", "1", "--context", "4096");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out())
                .startsWith(
                        "Llama-3-8B (8,030,261,248 parameters, 8,030,261,248 active) on GB10: decode, batch 1, context 4096");
        assertThat(r.out()).contains("weights 14.96 GiB").contains("fits").contains("beyond 114,516 tokens of context");
        assertThat(r.out()).contains("gate_proj").contains("lm_head");
    }

    @Test
    void modelFollowsSlidingWindowsAndThePositionLimit() {
        // gpt-oss-20b at 200k tokens: past its 131,072 positions; 12 of 24 layers keep 128 tokens, so the 12 others'
        // cache alone grows, 12 x 2 x 8 x 64 x 2 bytes = 24,576 a token beyond the window
        MainTest.Run r = MainTest.run("model", "gpt-oss-20b", "--hw", "gb10", "--context", "200000");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("note: context 200,000 is beyond the 131,072 positions the model is made for")
                .contains("(context 131,072 at batch 1)")
                .contains("attention (window 128)");
        long kv = 200_000L * 24_576 + 128L * 24_576;
        assertThat(r.out())
                .contains(String.format(java.util.Locale.ROOT, "KV cache %.2f GiB", kv / (double) (1L << 30)));
    }

    @Test
    void modelRecommendAndPlotRunForEveryPreset(@TempDir Path dir) {
        for (dev.roofline.core.model.Model m : dev.roofline.core.model.Models.presets()) {
            for (String command : new String[] {"model", "recommend"}) {
                MainTest.Run r = MainTest.run(command, m.name(), "--hw", "gb10", "--context", "8192");
                assertThat(r.status())
                        .as(command + " " + m.name() + ": " + r.err())
                        .isZero();
                assertThat(r.out()).as(command + " " + m.name()).contains(m.name());
            }
            Path svg = dir.resolve(m.name() + ".svg");
            MainTest.Run plot = MainTest.run("plot", m.name(), "--hw", "gb10", "--out", svg.toString());
            assertThat(plot.status()).as("plot " + m.name() + ": " + plot.err()).isZero();
            assertThat(svg).isNotEmptyFile();
        }
    }

    @Test
    void gptOssIsPricedAsReleasedUnlessAskedOtherwise() {
        MainTest.Run released = MainTest.run("model", "gpt-oss-20b", "--hw", "gb10");
        assertThat(released.status()).as(released.err()).isZero();
        assertThat(released.out()).contains("; W BF16 (experts MXFP4), A FP16");
        MainTest.Run fp8 = MainTest.run("model", "gpt-oss-20b", "--hw", "gb10", "--weights", "fp8");
        assertThat(fp8.out()).contains("; W FP8 E4M3, A FP16");
        MainTest.Run experts = MainTest.run("model", "gpt-oss-20b", "--hw", "gb10", "--expert-weights", "nvfp4");
        assertThat(experts.out()).contains("; W BF16 (experts NVFP4), A FP16");
        // Llama is released in 16 bits: the default stays FP16
        assertThat(MainTest.run("model", "llama-3-8b", "--hw", "gb10").out()).contains("; W FP16, A FP16");
        // experts alone named: the rest stays as released
        assertThat(MainTest.run("model", "gpt-oss-20b", "--hw", "gb10", "--expert-weights", "fp8")
                        .out())
                .contains("; W BF16 (experts FP8 E4M3), A FP16");
        MainTest.Run dense = MainTest.run("model", "llama-3-8b", "--expert-weights", "nvfp4");
        assertThat(dense.status()).isEqualTo(2);
        assertThat(dense.err()).contains("--expert-weights: Llama-3-8B has no routed experts");
    }

    @Test
    void aGptOssConfigIsPricedAsItsMxfp4Release(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("config.json");
        Files.writeString(config, dev.roofline.core.model.ConfigJsonTest.GPT_OSS_20B);
        MainTest.Run r = MainTest.run("model", config.toString(), "--hw", "gb10");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("; W BF16 (experts MXFP4), A FP16");
    }

    @Test
    void modelReadsAConfigJsonAndWritesCsv(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("config.json");
        Files.writeString(config, ConfigJsonText.LLAMA_3_8B);
        MainTest.Run r =
                MainTest.run("model", config.toString(), "--format", "csv", "--phase", "prefill", "--context", "512");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("operator,count,FLOPs,bytes");
    }

    @Test
    void recommendNamesPrecisionMethodSpeedupAndReason() {
        MainTest.Run r = MainTest.run("recommend", "llama-3-70b", "--hw", "gb10", "--allow", "fp16,fp8,nvfp4");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("Llama-3-70B on GB10: use W NVFP4, A FP16, KV FP8 E4M3 (");
        assertThat(r.out()).contains("method: projections: W NVFP4 x A FP16").contains("why: Decode at batch 1");
    }

    @Test
    void plotWritesAnSvg(@TempDir Path dir) throws Exception {
        Path svg = dir.resolve("r.svg");
        MainTest.Run r = MainTest.run(
                "plot",
                "deepseek-v3",
                "--hw",
                "gb200",
                "--batch",
                "16",
                "--weights",
                "nvfp4",
                "--measured",
                "gemv:0.9:3.5",
                "--out",
                svg.toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(Files.readString(svg)).contains("latent attention").contains(">gemv<");
    }

    @Test
    void badSubcommandArgumentsPrintUsage() {
        MainTest.Run r = MainTest.run("model", "gpt-5");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).contains("unknown model 'gpt-5'").contains("usage: roofline model|recommend|plot");
        assertThat(MainTest.run("model").err()).contains("model needs a model");
        assertThat(MainTest.run("model", "mistral-7b", "--batch", "0").err())
                .contains("--batch must be a positive integer, got '0'");
        assertThat(MainTest.run("model", "mistral-7b", "--phase", "train").err())
                .contains("--phase must be decode or prefill, got 'train'");
        assertThat(MainTest.run("model", "missing.json").err()).contains("model config 'missing.json' does not exist");
        assertThat(MainTest.run("plot", "mistral-7b", "--measured", "x:1").err())
                .contains("--measured expects LABEL:FLOP_PER_BYTE:TFLOPS");
    }

    /** Meta-Llama-3-8B's config.json (abridged). */
    static final class ConfigJsonText {
        static final String LLAMA_3_8B = """
                {"architectures": ["LlamaForCausalLM"], "hidden_size": 4096, "intermediate_size": 14336,
                 "model_type": "llama", "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 8,
                 "rms_norm_eps": 1e-05, "rope_theta": 500000.0, "tie_word_embeddings": false, "vocab_size": 128256}
                """;
    }
}
