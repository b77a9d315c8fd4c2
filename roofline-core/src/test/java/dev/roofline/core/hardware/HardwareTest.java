package dev.roofline.core.hardware;

import dev.roofline.core.model.Models;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.transformer.MemoryFit;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class HardwareTest {

    @Test
    void gb10UsesThePublished273GBsNot287() {
        assertThat(Hardware.GB10.memoryBytesPerSecond()).isEqualTo(273e9);
        assertThat(Hardware.GB10.source(Hardware.Figure.MEMORY_BANDWIDTH).kind())
                .isEqualTo(Source.Kind.DATASHEET);
    }

    @Test
    void gb10OnePetaflopFp4IsTheSparseFigure() {
        assertThat(Hardware.GB10.sparse().get(Precision.NVFP4).flopsPerSecond()).isEqualTo(1000e12);
        assertThat(Hardware.GB10.ceiling(Precision.NVFP4).orElseThrow().flopsPerSecond())
                .isEqualTo(500e12);
        assertThat(Hardware.GB10.ceiling(Precision.NVFP4).orElseThrow().source().kind())
                .isEqualTo(Source.Kind.DERIVED);
    }

    @Test
    void registryNamesAndAliasesResolve() {
        assertThat(Hardware.byName("b10")).isSameAs(Hardware.GB10);
        assertThat(Hardware.byName("DGX-Spark")).isSameAs(Hardware.GB10);
        assertThat(Hardware.byName("h100_sxm")).isSameAs(Hardware.H100_SXM);
        assertThat(Hardware.byName("H100 PCIe")).isSameAs(Hardware.H100_PCIE);
        assertThat(Hardware.byName("a100")).isSameAs(Hardware.A100_SXM_80GB);
        assertThat(Hardware.registry()).first().isSameAs(Hardware.GB10);
        assertThat(Hardware.registry()).hasSize(7);
    }

    @Test
    void unknownHardwareListsTheRegistry() {
        assertThatThrownBy(() -> Hardware.byName("rtx9090"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown hardware 'rtx9090'")
                .hasMessageContaining("GB10")
                .hasMessageContaining("H200")
                .hasMessageContaining("b10");
    }

    @Test
    void everyFigureAndCeilingCarriesASource() {
        for (Hardware h : Hardware.registry()) {
            for (Hardware.Figure f : Hardware.Figure.values()) {
                if (f != Hardware.Figure.KERNEL_LATENCY) {
                    assertThat(h.sources()).as(h.name() + " " + f).containsKey(f);
                }
            }
            h.dense().values().forEach(c -> assertThat(c.source().citation())
                    .as(h + " " + c.precision())
                    .isNotBlank());
            h.sparse().values().forEach(c -> assertThat(c.source().citation()).isNotBlank());
        }
    }

    @Test
    void datasheetsModelNoKernelLatency() {
        // no datasheet gives a per-kernel fixed cost; it exists only where measured
        for (Hardware h : Hardware.registry()) {
            assertThat(h.kernelLatencySeconds()).as(h.name()).isZero();
            assertThat(h.sources()).as(h.name()).doesNotContainKey(Hardware.Figure.KERNEL_LATENCY);
        }
    }

    @Test
    void kernelLatencyIsKeptWithItsSource() {
        Source s = Source.user("copy intercept");
        Hardware h = Hardware.H200.withKernelLatency(2.5e-6, s);
        assertThat(h.kernelLatencySeconds()).isEqualTo(2.5e-6);
        assertThat(h.source(Hardware.Figure.KERNEL_LATENCY)).isEqualTo(s);
        assertThat(h.memoryBytesPerSecond()).isEqualTo(Hardware.H200.memoryBytesPerSecond());
        assertThat(h.withCeiling(Hardware.H200.ceiling(Precision.FP8_E4M3).orElseThrow())
                        .kernelLatencySeconds())
                .isEqualTo(2.5e-6);
        assertThat(h.withMemoryBandwidth(4e12, s).kernelLatencySeconds()).isEqualTo(2.5e-6);
    }

    @Test
    void negativeOrNonFiniteKernelLatencyIsRejected() {
        Source s = Source.user("x");
        assertThatThrownBy(() -> Hardware.H200.withKernelLatency(-1e-6, s))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("kernelLatencySeconds")
                .hasMessageContaining("-1.0E-6");
        assertThatThrownBy(() -> Hardware.H200.withKernelLatency(Double.NaN, s))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("kernelLatencySeconds");
        assertThatThrownBy(() -> Hardware.H200.withKernelLatency(Double.POSITIVE_INFINITY, s))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("kernelLatencySeconds");
        assertThatThrownBy(() -> Hardware.newBuilder("x").kernelLatency(0, s))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("kernelLatency seconds");
    }

    @Test
    void builtHardwareKeepsItsKernelLatency() {
        Source s = Source.user("my measurement");
        Hardware h = Hardware.newBuilder("my-gpu")
                .memoryBandwidth(1e12, s)
                .kernelLatency(4e-6, s)
                .ceiling(Precision.FP32, 50e12, Ceiling.Unit.CUDA_CORE, s)
                .build();
        assertThat(h.kernelLatencySeconds()).isEqualTo(4e-6);
        assertThat(h.source(Hardware.Figure.KERNEL_LATENCY)).isEqualTo(s);
    }

    @Test
    void denseIsHalfOfTheWithSparsityDatasheetFigure() {
        // H100 SXM datasheet: FP16 1,979 TFLOPS and FP8 3,958 TFLOPS "with sparsity"
        assertThat(Hardware.H100_SXM.ceiling(Precision.FP16).orElseThrow().flopsPerSecond())
                .isEqualTo(989.5e12);
        assertThat(Hardware.H100_SXM.ceiling(Precision.FP8_E4M3).orElseThrow().flopsPerSecond())
                .isEqualTo(1979e12);
        assertThat(Hardware.H200.ceiling(Precision.BF16).orElseThrow().flopsPerSecond())
                .isEqualTo(989.5e12);
        // B200: FP4 18 PFLOPS sparse -> 9 dense
        assertThat(Hardware.B200.ceiling(Precision.NVFP4).orElseThrow().flopsPerSecond())
                .isEqualTo(9000e12);
        assertThat(Hardware.GB200.ceiling(Precision.FP8_E4M3).orElseThrow().flopsPerSecond())
                .isEqualTo(5000e12);
    }

    @Test
    void hopperAndBlackwellHaveNoInt4TensorCores() {
        for (Hardware h : new Hardware[] {
            Hardware.GB10, Hardware.H100_SXM, Hardware.H100_PCIE, Hardware.H200, Hardware.B200, Hardware.GB200
        }) {
            assertThat(h.runsNatively(Precision.INT4)).as(h.name()).isFalse();
        }
        assertThat(Hardware.A100_SXM_80GB.runsNatively(Precision.INT4)).isTrue();
        assertThat(Hardware.A100_SXM_80GB.runsNatively(Precision.FP8_E4M3)).isFalse();
    }

    @Test
    void int4WeightsOnHopperRunOnTheFp16Path() {
        ComputePath path = Hardware.H100_SXM.computePath(Precision.INT4, Precision.FP16);
        assertThat(path.nativePath()).isTrue(); // W4A16: the wider operand (FP16) decides and H100 runs FP16
        assertThat(path.executedAs()).isEqualTo(Precision.FP16);
        assertThat(path.method()).isEqualTo("W INT4 x A FP16: INT4 weights converted to FP16, FP16 tensor cores");

        ComputePath w4a4 = Hardware.H100_SXM.computePath(Precision.INT4, Precision.INT4);
        assertThat(w4a4.nativePath()).isFalse();
        assertThat(w4a4.executedAs()).isEqualTo(Precision.FP16);
        assertThat(w4a4.method()).contains("no INT4 path on H100 SXM");
    }

    @Test
    void nvfp4IsNativeOnBlackwellOnly() {
        assertThat(Hardware.B200.computePath(Precision.NVFP4, Precision.NVFP4).nativePath())
                .isTrue();
        assertThat(Hardware.GB10.computePath(Precision.NVFP4, Precision.NVFP4).executedAs())
                .isEqualTo(Precision.NVFP4);
        ComputePath hopper = Hardware.H200.computePath(Precision.NVFP4, Precision.NVFP4);
        assertThat(hopper.nativePath()).isFalse();
        assertThat(hopper.executedAs()).isEqualTo(Precision.FP16);
        // MXFP8 on Hopper: FP8 tensor cores with software block scales
        assertThat(Hardware.H200
                        .computePath(Precision.MXFP8_E4M3, Precision.MXFP8_E4M3)
                        .executedAs())
                .isEqualTo(Precision.FP8_E4M3);
    }

    @Test
    void fp8WeightsOnA100AreDequantizedTo16Bits() {
        ComputePath p = Hardware.A100_SXM_80GB.computePath(Precision.FP8_E4M3, Precision.FP8_E4M3);
        assertThat(p.nativePath()).isFalse();
        assertThat(p.executedAs()).isEqualTo(Precision.FP16);
    }

    @Test
    void ridgePointIsPeakOverBandwidth() {
        // 989.5 TFLOPS / 3.35 TB/s
        assertThat(Hardware.H100_SXM.ridgePoint(Precision.FP16)).isCloseTo(989.5 / 3.35, within(1e-9));
        assertThatThrownBy(() -> Hardware.H100_SXM.ridgePoint(Precision.NVFP4))
                .hasMessageContaining("no NVFP4 ceiling");
    }

    @Test
    void customHardwareIsBuiltFromUserFigures() {
        Hardware mine = Hardware.newBuilder("lab-gpu")
                .memoryBandwidth(1.5e12, Source.user("vendor sheet"))
                .ceiling(Precision.FP32, 40e12, Ceiling.Unit.CUDA_CORE, Source.user("vendor sheet"))
                .ceiling(Precision.FP16, 300e12, Ceiling.Unit.TENSOR_CORE, Source.user("vendor sheet"))
                .build();
        assertThat(mine.memoryBytesPerSecond()).isEqualTo(1.5e12);
        assertThat(mine.computePath(Precision.BF16, Precision.BF16).executedAs())
                .isEqualTo(Precision.FP32);
        assertThat(mine.computeCapability()).isEmpty();
    }

    @Test
    void builderRejectsBadFigures() {
        assertThatThrownBy(() -> Hardware.newBuilder("x").memoryBandwidth(Double.NaN, Source.user("s")))
                .hasMessageContaining("memoryBandwidth")
                .hasMessageContaining("NaN");
        assertThatThrownBy(() -> Hardware.newBuilder("x").memoryBandwidth(-1, Source.user("s")))
                .hasMessageContaining("-1.0");
        assertThatThrownBy(() -> Hardware.newBuilder(" ")).hasMessageContaining("name must not be blank");
        assertThatThrownBy(() ->
                        Hardware.newBuilder("x").ceiling(Precision.FP16, 0, Ceiling.Unit.TENSOR_CORE, Source.user("s")))
                .hasMessageContaining("flopsPerSecond")
                .hasMessageContaining("0.0");
        assertThatThrownBy(() -> Hardware.newBuilder("x")
                        .ceiling(Precision.FP16, 1e12, Ceiling.Unit.TENSOR_CORE, Source.user("s"))
                        .build())
                .hasMessageContaining("needs memoryBandwidth");
        assertThatThrownBy(() -> Hardware.newBuilder("x")
                        .memoryBandwidth(1e12, Source.user("s"))
                        .build())
                .hasMessageContaining("at least one dense ceiling");
        assertThatThrownBy(() -> Hardware.newBuilder("x").computeCapability("nine", Source.user("s")))
                .hasMessageContaining("'nine'");
    }

    @Test
    void measuredCeilingsReplaceDatasheetOnes() {
        Source measured = Source.measured("NVIDIA H200", LocalDate.of(2026, 11, 22), "cuBLASLt 8192^3");
        Hardware h = Hardware.H200
                .withCeiling(new Ceiling(Precision.FP16, 700e12, Ceiling.Unit.TENSOR_CORE, measured))
                .withMemoryBandwidth(4.26e12, measured);
        assertThat(h.ceiling(Precision.FP16).orElseThrow().flopsPerSecond()).isEqualTo(700e12);
        assertThat(h.ceiling(Precision.FP16).orElseThrow().source().kind()).isEqualTo(Source.Kind.MEASURED);
        assertThat(h.memoryBytesPerSecond()).isEqualTo(4.26e12);
        assertThat(h.source(Hardware.Figure.MEMORY_BANDWIDTH).citation())
                .contains("measured on NVIDIA H200, 2026-11-22");
        // the registry entry itself is unchanged
        assertThat(Hardware.H200.ceiling(Precision.FP16).orElseThrow().flopsPerSecond())
                .isEqualTo(989.5e12);
    }

    @Test
    void computeCapabilityParsesBothSpellings() {
        assertThat(ComputeCapability.parse("sm_121a")).isEqualTo(new ComputeCapability(12, 1));
        assertThat(ComputeCapability.parse("9.0")).isEqualTo(new ComputeCapability(9, 0));
        assertThat(ComputeCapability.parse("sm_90").atLeast(10, 0)).isFalse();
        assertThat(Hardware.GB10.computeCapability()).contains(new ComputeCapability(12, 1));
    }

    @Test
    void datasheetGigabytesOfMemoryAreGibibytes() {
        // "80GB" of HBM is five 16 GiB stacks; nvidia-smi on an H100 80GB HBM3 reports 81,559 + 480 reserved MiB
        long gib = 1L << 30;
        assertThat(Hardware.A100_SXM_80GB.memoryBytes())
                .isEqualTo(85_899_345_920L)
                .isEqualTo(80 * gib);
        assertThat(Hardware.H100_SXM.memoryBytes()).isEqualTo(80 * gib);
        assertThat(Hardware.H100_PCIE.memoryBytes()).isEqualTo(80 * gib);
        assertThat(Hardware.H200.memoryBytes()).isEqualTo(141 * gib);
        assertThat(Hardware.B200.memoryBytes()).isEqualTo(180 * gib);
        assertThat(Hardware.GB200.memoryBytes()).isEqualTo(186 * gib);
        assertThat(Hardware.GB10.memoryBytes()).isEqualTo(128 * gib);
        for (Hardware h : Hardware.registry()) {
            Source s = h.source(Hardware.Figure.MEMORY_CAPACITY);
            assertThat(s.kind()).as(h.name()).isEqualTo(Source.Kind.DATASHEET);
            assertThat(s.citation()).as(h.name()).containsIgnoringCase("nvidia");
            assertThat(s.note()).as(h.name()).contains("GB").contains("2^30 B").contains("JEDEC");
        }
    }

    @Test
    void nvidiasLlama2Batch60RunFitsAnA100With80GiB() {
        // NVIDIA/TensorRT-LLM docs/source/performance.md (v0.6.1), "A100 GPUs (FP16)": LLaMA 7B, batch 60, TP 1,
        // input 128, output 2048, 1,928 output tokens/s/GPU; so it fit one A100 80GB.
        // Weights: Llama-2-7B has 6,738,415,616 parameters (32 layers of 4·4096² + 3·4096·11008 + 2·4096, embedding
        // and head 2·32000·4096, final norm 4096), 2 B each in FP16: 13,476,831,232 B.
        // KV cache: 2 (K, V) · 32 heads · 128 · 2 B · 32 layers = 524,288 B per token, 60 · (128 + 2048) = 130,560
        // tokens: 68,451,041,280 B. Total 81,927,872,512 B: more than 80·10^9, less than 80·2^30 = 85,899,345,920.
        MemoryFit m = Transformer.of(Models.LLAMA_2_7B, Hardware.A100_SXM_80GB)
                .memory(Workload.decode(60, 128 + 2048)
                        .withWeights(Precision.FP16)
                        .withKvCache(Precision.FP16));
        assertThat(m.weightBytes()).isEqualTo(13_476_831_232L);
        assertThat(m.kvCacheBytes()).isEqualTo(68_451_041_280L);
        assertThat(m.totalBytes()).isEqualTo(81_927_872_512L).isGreaterThan(80_000_000_000L);
        assertThat(m.fits()).isTrue();
    }

    @Test
    void figuresBelowThePhysicalFloorAreRefused() {
        Source s = Source.user("s");
        assertThatThrownBy(() -> Hardware.newBuilder("x").memoryBandwidth(1e-300, s))
                .hasMessage("memoryBandwidth bytesPerSecond must be a finite number of at least 1 GB/s (1.0E9),"
                        + " got 1.0E-300");
        assertThatThrownBy(() -> Hardware.newBuilder("x").memoryBandwidth(Double.POSITIVE_INFINITY, s))
                .hasMessageContaining("got Infinity");
        assertThatThrownBy(() -> Hardware.H100_SXM.withMemoryBandwidth(0.5e9, s))
                .hasMessage("bytesPerSecond must be a finite number of at least 1 GB/s (1.0E9), got 5.0E8");
        assertThatThrownBy(() -> new Ceiling(Precision.FP16, 1e-300, Ceiling.Unit.TENSOR_CORE, s))
                .hasMessage("FP16 flopsPerSecond must be a finite number of at least 1 GFLOP/s (1.0E9), got 1.0E-300");
        assertThatThrownBy(() -> new Ceiling(Precision.FP16, Double.NaN, Ceiling.Unit.TENSOR_CORE, s))
                .hasMessageContaining("got NaN");
        // the floor itself is accepted
        assertThat(Hardware.newBuilder("slow")
                        .memoryBandwidth(Hardware.MIN_BYTES_PER_SECOND, s)
                        .ceiling(Precision.FP32, Hardware.MIN_FLOPS_PER_SECOND, Ceiling.Unit.CUDA_CORE, s)
                        .build()
                        .memoryBytesPerSecond())
                .isEqualTo(1e9);
    }

    @Test
    void nullNamesAndAliasesAreNamedInTheError() {
        assertThatThrownBy(() -> Hardware.byName(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("hardware must not be null; known: GB10");
        assertThatThrownBy(() -> Hardware.newBuilder(null)).hasMessage("name must not be blank, got null");
        assertThatThrownBy(() -> Hardware.newBuilder("x").aliases((String[]) null))
                .hasMessage("aliases must not be null");
        assertThatThrownBy(() -> Hardware.newBuilder("x")
                        .aliases("a", null)
                        .memoryBandwidth(1e12, Source.user("s"))
                        .ceiling(Precision.FP32, 1e12, Ceiling.Unit.CUDA_CORE, Source.user("s"))
                        .build())
                .hasMessage("aliases[1] must not be blank, got null");
        assertThatThrownBy(() -> Hardware.newBuilder("x").ceiling(null, 1e12, Ceiling.Unit.CUDA_CORE, Source.user("s")))
                .hasMessage("precision must not be null");
        assertThatThrownBy(() -> Hardware.GB10.computePath(null, Precision.FP16))
                .hasMessage("weights must not be null");
        assertThatThrownBy(() -> Hardware.GB10.ridgePoint(null)).hasMessage("precision must not be null");
    }

    @Test
    void aKernelLatencyOfMoreThanASecondIsRefused() {
        Source s = Source.user("s");
        assertThat(Hardware.H100_SXM.withKernelLatency(1, s).kernelLatencySeconds())
                .isEqualTo(1);
        // 1e300 s per operator would print a 300-digit time
        assertThatThrownBy(() -> Hardware.H100_SXM.withKernelLatency(1e300, s))
                .hasMessage("kernelLatencySeconds must be in [0, 1] s (0 = not modelled), got 1.0E300");
        assertThatThrownBy(() -> Hardware.H100_SXM.withKernelLatency(Double.NaN, s))
                .hasMessageContaining("got NaN");
    }
}
