package dev.roofline.cuda.bench;

import dev.roofline.core.hardware.ComputeCapability;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.internal.Json;
import dev.roofline.core.model.Models;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.core.roofline.Prediction;
import dev.roofline.core.roofline.Roofline;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.cuda.MemoryFacts;
import dev.roofline.cuda.kernels.FatbinContents;
import dev.roofline.cuda.kernels.KernelLaunch;
import dev.roofline.cuda.kernels.WeightFormat;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** {@link Validation}: registry figures beside measurements, ratios by hand, and the two renderings. */
class ValidationTest {
    private static final long GIB = 1L << 30;
    private static final MemoryFacts MEMORY = new MemoryFacts(false, false, 100 * GIB, 140 * GIB);
    private static final DeviceCeilings MEASURED = new DeviceCeilings(
            "NVIDIA H200",
            LocalDate.of(2026, 11, 25),
            4.0e12,
            5e-6,
            "copies",
            Map.of(Precision.FP16, 791.6e12, Precision.NVFP4, 1.0e15),
            "8192^3 products",
            Map.of(Precision.FP8_E4M3, "CublasException: no algorithm"));

    private static Validation.Check check(List<Validation.Check> checks, String figure) {
        return checks.stream()
                .filter(c -> c.figure().equals(figure))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void ratiosAreMeasuredOverTheDatasheet() {
        List<Validation.Check> checks = Validation.checks(Hardware.H200, Optional.of(MEASURED), MEMORY);
        // H200 datasheet: 4.8 TB/s; 4.0 / 4.8
        assertThat(check(checks, "DRAM bandwidth").ratio().getAsDouble()).isCloseTo(0.83333, within(1e-5));
        assertThat(check(checks, "DRAM bandwidth").source()).contains("H200");
        // H200 datasheet FP16: 1979 TFLOPS with sparsity, 989.5 dense; 791.6 / 989.5 = 0.8
        assertThat(check(checks, "FP16 dense peak").ratio().getAsDouble()).isCloseTo(0.8, within(1e-9));
        // 141 GB HBM3e in the registry (GiB); CUDA sees 140 GiB
        assertThat(check(checks, "memory capacity").ratio().getAsDouble()).isCloseTo(140.0 / 141, within(1e-12));
        assertThat(check(checks, "kernel latency").measured()).isEqualTo(5e-6);
    }

    @Test
    void aPrecisionTheRegistryLacksHasNoRatioAndSaysSo() {
        Validation.Check nvfp4 =
                check(Validation.checks(Hardware.H200, Optional.of(MEASURED), MEMORY), "NVFP4 dense peak");
        assertThat(nvfp4.registry()).isEmpty();
        assertThat(nvfp4.ratio()).isEmpty();
        assertThat(nvfp4.source()).isEqualTo("the registry has no NVFP4 ceiling for H200");
    }

    @Test
    void onlyHopperHasBeenRunByUsAndBlackwellAddsTheBlockScaledProducts() {
        FatbinContents kernels = new FatbinContents(List.of(
                new FatbinContents.Entry(FatbinContents.Kind.CUBIN, 90),
                new FatbinContents.Entry(FatbinContents.Kind.CUBIN, 121),
                new FatbinContents.Entry(FatbinContents.Kind.PTX, 90)));
        assertThat(Validation.neverRunByUs(new ComputeCapability(9, 0), kernels))
                .isEmpty();
        assertThat(Validation.neverRunByUs(new ComputeCapability(8, 9), kernels))
                .hasSize(2)
                .last()
                .asString()
                .contains("nothing in the fatbin ([sm_90, sm_121, compute_90]) runs on sm_89");
        // Blackwell B300 (10.3): no machine code of its own, compute_90 PTX compiled by the driver
        assertThat(Validation.neverRunByUs(new ComputeCapability(10, 3), kernels)
                        .get(1))
                .contains("no machine code for sm_103")
                .contains("the driver compiles its PTX for this GPU");
        assertThat(Validation.neverRunByUs(new ComputeCapability(12, 1), kernels))
                .hasSize(4)
                .satisfies(l -> assertThat(l.get(1)).contains("machine code for sm_121 is in the fatbin"))
                .satisfies(l -> assertThat(l.get(2)).contains("block-scaled").contains("never run on one by us"))
                .last()
                .asString()
                .contains("native FP4 GEMV")
                .contains("mma.sync kind::mxf4nvf4")
                .contains("never run on one by us");
        // data-center Blackwell: the block-scaled cuBLASLt products and the native FP4 GEMV on tcgen05.mma
        assertThat(Validation.neverRunByUs(new ComputeCapability(10, 0), kernels))
                .hasSize(4)
                .last()
                .asString()
                .contains("native FP4 GEMV")
                .contains("tcgen05.mma kind::mxf4nvf4")
                .contains("never run on one by us");
        // B300 (10.3): the fatbin's sm_100a code does not run there, so no native FP4 GEMV either
        assertThat(Validation.neverRunByUs(new ComputeCapability(10, 3), kernels))
                .hasSize(3)
                .noneMatch(l -> l.contains("native FP4 GEMV"));
    }

    @Test
    void markdownAndJsonCarryEveryFigure() {
        Gemm g = Gemm.gemv(8192, 8192);
        Prediction sheet = Roofline.on(Hardware.H200).predict(g);
        Measurement kernel = new Measurement("FP16", g, TimingStats.of(40), sheet).withDatasheet(sheet);
        Validation v = new Validation(
                "NVIDIA H200",
                new ComputeCapability(9, 0),
                "H200",
                LocalDate.of(2026, 11, 25),
                "CUDA runtime 13000",
                Validation.checks(Hardware.H200, Optional.of(MEASURED), MEMORY),
                List.of(kernel),
                List.of(),
                MEMORY,
                List.of("FP8 E4M3 peak: CublasException: no algorithm"),
                Validation.neverRunByUs(new ComputeCapability(9, 0), FatbinContents.embedded()));
        // (8192 x 8192 weights + 8192 inputs + 8192 outputs) x 2 B = 134,250,496 B at the H200's 4.8 TB/s, no kernel
        // latency in its registry entry: 27.969 us, 69.92 % of the 40 us measured
        assertThat(Validation.percentOfDatasheet(kernel).getAsDouble()).isCloseTo(69.9221, within(1e-4));
        assertThat(v.markdown())
                .contains("| DRAM bandwidth | 4800 GB/s | 4000 GB/s | 0.833 |")
                .contains("| FP16 dense peak | 990 TFLOPS | 792 TFLOPS | 0.800 |")
                .contains("| NVFP4 dense peak | – | 1000 TFLOPS | – |")
                .contains("| FP16 | " + g.name() + " | 1 | 40.00 | 27.97 | 69.9% | – |")
                .contains("- free 100.00 GiB of 140.00 GiB total")
                .contains("- FP8 E4M3 peak: CublasException: no algorithm")
                .contains("## Decode steps\n\nNone run.\n")
                .contains("Nothing: roofline's developers have run these kernels and products on this GPU family.");
        @SuppressWarnings("unchecked")
        Map<String, Object> json = (Map<String, Object>) Json.parse(v.json());
        assertThat(json).containsEntry("gpu", "NVIDIA H200").containsEntry("compute_capability", "9.0");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> checks = (List<Map<String, Object>>) json.get("checks");
        assertThat(checks.getFirst()).containsEntry("figure", "DRAM bandwidth");
        assertThat(((Number) checks.getFirst().get("registry")).doubleValue()).isEqualTo(4.8e12);
        assertThat(((Number) checks.getFirst().get("measured")).doubleValue()).isEqualTo(4.0e12);
        assertThat(checks.stream()
                        .filter(c -> c.get("figure").equals("NVFP4 dense peak"))
                        .findFirst()
                        .orElseThrow())
                .containsEntry("ratio", null);
        @SuppressWarnings("unchecked")
        Map<String, Object> memory = (Map<String, Object>) json.get("memory");
        assertThat(((Number) memory.get("total_bytes")).longValue()).isEqualTo(140 * GIB);
        assertThat(json.get("never_run_by_us")).isEqualTo(List.of());
        assertThat(json.get("decode")).isEqualTo(List.of());
    }

    @Test
    void decodeStepsShowTokensAndBytesPerSecondAndWhyOneDidNotRun() {
        ModelPrediction p = Transformer.of(Models.LLAMA_3_8B, Hardware.H200)
                .predict(DecodeStepBenchmark.workload(WeightFormat.FP16, 2, 1024));
        DecodeStepResult ran = new DecodeStepResult(
                "Llama-3-8B",
                new DecodeStepBenchmark.Config(WeightFormat.FP16, 2, 1024, KernelLaunch.PROGRAMMATIC),
                0.01,
                p,
                p,
                16_000_000_000L,
                250_000_000L,
                List.of(),
                Optional.empty(),
                null,
                Double.NaN);
        DecodeStepResult skipped = DecodeStepResult.unsupported(
                "Llama-3-8B",
                new DecodeStepBenchmark.Config(WeightFormat.NVFP4, 2, 1024, KernelLaunch.PROGRAMMATIC),
                1,
                1,
                "not run: does not fit");
        Validation v = new Validation(
                "NVIDIA H200",
                new ComputeCapability(9, 0),
                "H200",
                LocalDate.of(2026, 11, 25),
                "CUDA runtime 13000",
                List.of(),
                List.of(),
                List.of(ran, skipped),
                MEMORY,
                List.of(),
                List.of());
        double sheetMicros = DecodeStepResult.stepPrediction(p) * 1e6;
        // 2 tokens in 10 ms = 200 tokens/s; (16 + 0.25) GB in 10 ms = 1625 GB/s
        assertThat(v.markdown())
                .contains(String.format(
                        Locale.ROOT,
                        "| Llama-3-8B | FP16 | FP16 | 2 | 1024 | 10000.0 | %.1f | %.1f%% | 200.0 | 1625 | – |",
                        sheetMicros,
                        sheetMicros / 100))
                .contains("| Llama-3-8B | NVFP4 | FP16 | 2 | 1024 | not run: does not fit |");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> decode =
                (List<Map<String, Object>>) ((Map<String, Object>) Json.parse(v.json())).get("decode");
        assertThat(((Number) decode.getFirst().get("median_seconds")).doubleValue())
                .isEqualTo(0.01);
        assertThat(decode.get(1))
                .containsEntry("not_run", "not run: does not fit")
                .containsEntry("median_seconds", null);
    }
}
