package dev.roofline.core.hardware;

import dev.roofline.core.precision.Precision;

import static dev.roofline.core.hardware.Ceiling.Unit.CUDA_CORE;
import static dev.roofline.core.hardware.Ceiling.Unit.TENSOR_CORE;

/**
 * The registry's figures, each with its source. NVIDIA datasheets quote tensor-core rates "with sparsity" (2:4);
 * the dense rate used by predictions is half of it, and is marked as derived. Rates are decimal as published
 * (1 TB/s = 1e12 B/s, 1 GB/s = 1e9 B/s); memory capacities are not: a datasheet's "80GB" of HBM or LPDDR is
 * 80 · 2^30 bytes, the JEDEC meaning of giga for memory capacity ({@link #JEDEC_GB}), as the chips are built (five
 * 16 GiB HBM stacks on an 80GB Hopper) and as the driver reports (nvidia-smi on an H100 80GB HBM3: 81,559 MiB total
 * plus 480 MiB reserved; on an H200: 143,771 MiB plus 616 MiB, i.e. 141 GiB).
 */
final class Datasheets {
    private Datasheets() {}

    private static final double T = 1e12;
    private static final double GB = 1e9;
    private static final long MB = 1_000_000L;
    private static final long MIB = 1L << 20;
    private static final long GIB = 1L << 30;

    /** Why a datasheet's memory "GB" is 2^30 bytes. */
    static final String JEDEC_GB = "GB of memory capacity = 2^30 B, JEDEC JESD100B.01 and JESD21-C usage";

    static final String DGX_SPARK = "NVIDIA DGX Spark product page and hardware guide, "
            + "https://www.nvidia.com/en-us/products/workstations/dgx-spark/ , https://docs.nvidia.com/dgx/dgx-spark/hardware.html";
    static final String GB10_HOT_CHIPS = "NVIDIA GB10 presentation, Hot Chips 2025 (as reported by TechPowerUp)";
    static final String GB10_DEVICE_QUERY =
            "cudaGetDeviceProperties on a DGX Spark (github.com/GuigsEvt/dgx_spark_config issue #1)";
    static final String H100 =
            "NVIDIA H100 Tensor Core GPU datasheet, https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet";
    static final String HOPPER_WP = "NVIDIA H100 Tensor Core GPU Architecture whitepaper (GH100)";
    static final String H200 =
            "NVIDIA H200 Tensor Core GPU product page and datasheet, https://www.nvidia.com/en-us/data-center/h200/";
    static final String HGX_B200 =
            "NVIDIA HGX platform page, individual Blackwell GPU (HGX B200) specifications, https://www.nvidia.com/en-us/data-center/hgx/";
    static final String B200_QUERY = "cudaGetDeviceProperties on a B200 (github.com/pytorch/ao pull 4002)";
    static final String NVL72 =
            "NVIDIA GB200 NVL72 specifications, individual Blackwell GPU column, https://www.nvidia.com/en-us/data-center/gb200-nvl72/";
    static final String A100 =
            "NVIDIA A100 Tensor Core GPU datasheet (80GB SXM), https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf";
    static final String AMPERE_WP =
            "NVIDIA A100 Tensor Core GPU Architecture whitepaper, https://images.nvidia.com/aem-dam/en-zz/Solutions/data-center/nvidia-ampere-architecture-whitepaper.pdf";

    /** A capacity the datasheet gives in GB ({@code says}: the figure and where), in bytes by {@link #JEDEC_GB}. */
    private static Source capacity(String citation, String says) {
        return new Source(Source.Kind.DATASHEET, citation, says + "; " + JEDEC_GB, false);
    }

    /** A tensor-core rate the datasheet quotes with sparsity: sparse as published, dense = half of it. */
    private static void sparseQuoted(Hardware.Builder b, double sparseTeraFlops, String citation, Precision... ps) {
        for (Precision p : ps) {
            b.sparseCeiling(p, sparseTeraFlops * T, Source.datasheet(citation));
            b.ceiling(
                    p,
                    sparseTeraFlops / 2 * T,
                    TENSOR_CORE,
                    Source.derived(
                            citation, "dense = half of the " + sparseTeraFlops + " TFLOPS with-sparsity figure"));
        }
    }

    /** A rate the datasheet quotes dense (FP32/FP64 and, for A100, both columns). */
    private static void dense(
            Hardware.Builder b, double teraFlops, Ceiling.Unit unit, String citation, Precision... ps) {
        for (Precision p : ps) {
            b.ceiling(p, teraFlops * T, unit, Source.datasheet(citation));
        }
    }

    /** GB10: NVIDIA publishes bandwidth, FP32 and "1 PFLOP FP4 with sparsity" only; the rest is derived. */
    static Hardware gb10() {
        Hardware.Builder b = Hardware.newBuilder("GB10")
                .aliases("b10", "dgx-spark", "spark", "ascent-gx10", "gx10")
                .memoryBandwidth(273 * GB, Source.datasheet(DGX_SPARK + " (273 GB/s LPDDR5x; not 287)"))
                .memoryCapacity(128 * GIB, capacity(DGX_SPARK, "128 GB LPDDR5x, unified with the CPU"))
                .smCount(48, Source.datasheet(GB10_DEVICE_QUERY))
                .l2(24 * MB, Source.estimate(GB10_HOT_CHIPS, "24 MB L2 as reported; MB vs MiB not confirmed"))
                .computeCapability("12.1", Source.datasheet(GB10_DEVICE_QUERY))
                .power(140, Source.datasheet(DGX_SPARK + " (GB10 chip TDP, CPU and GPU together)"));
        b.ceiling(Precision.FP32, 31 * T, CUDA_CORE, Source.datasheet(GB10_HOT_CHIPS + ": 31 TFLOPS FP32"));
        b.ceiling(
                Precision.FP64,
                31.0 / 64 * T,
                CUDA_CORE,
                Source.estimate(GB10_HOT_CHIPS, "not published; FP32/64 as on other sm_12x parts"));
        for (Precision p : new Precision[] {Precision.NVFP4, Precision.MXFP4}) {
            b.sparseCeiling(p, 1000 * T, Source.datasheet(DGX_SPARK + ": 1 PFLOP FP4 with sparsity"));
            b.ceiling(
                    p,
                    500 * T,
                    TENSOR_CORE,
                    Source.derived(DGX_SPARK, "dense = half of the 1 PFLOP FP4 with-sparsity figure"));
        }
        String ratio =
                "not published; sm_12x tensor cores run FP8/FP6/INT8 at half the FP4 rate, 16-bit at a quarter, TF32 at an eighth";
        gb10Derived(
                b,
                250,
                ratio,
                Precision.FP8_E4M3,
                Precision.FP8_E5M2,
                Precision.MXFP8_E4M3,
                Precision.MXFP8_E5M2,
                Precision.MXFP6_E3M2,
                Precision.MXFP6_E2M3,
                Precision.INT8);
        gb10Derived(b, 125, ratio, Precision.FP16, Precision.BF16);
        gb10Derived(b, 62.5, ratio, Precision.TF32);
        return b.build();
    }

    private static void gb10Derived(Hardware.Builder b, double denseTeraFlops, String why, Precision... ps) {
        for (Precision p : ps) {
            b.ceiling(p, denseTeraFlops * T, TENSOR_CORE, Source.estimate(DGX_SPARK, why));
        }
    }

    private static void hopperTensorCores(Hardware.Builder b, String citation, double tf32, double fp16, double fp8) {
        sparseQuoted(b, tf32, citation, Precision.TF32);
        sparseQuoted(b, fp16, citation, Precision.FP16, Precision.BF16);
        sparseQuoted(b, fp8, citation, Precision.FP8_E4M3, Precision.FP8_E5M2, Precision.INT8);
    }

    static Hardware h100Sxm() {
        Hardware.Builder b = Hardware.newBuilder("H100 SXM")
                .aliases("h100", "h100-sxm5", "h100sxm")
                .memoryBandwidth(3.35 * T, Source.datasheet(H100))
                .memoryCapacity(80 * GIB, capacity(H100, "80GB HBM3 (SXM column)"))
                .smCount(132, Source.datasheet(HOPPER_WP))
                .l2(50 * MIB, Source.datasheet(HOPPER_WP + "; cudaGetDeviceProperties reports 52428800 B"))
                .computeCapability("9.0", Source.datasheet(HOPPER_WP))
                .power(700, Source.datasheet(H100 + " (up to 700 W, configurable)"));
        dense(b, 67, TENSOR_CORE, H100, Precision.FP64);
        dense(b, 67, CUDA_CORE, H100, Precision.FP32);
        hopperTensorCores(b, H100, 989, 1979, 3958);
        return b.build();
    }

    static Hardware h100Pcie() {
        Hardware.Builder b = Hardware.newBuilder("H100 PCIe")
                .aliases("h100-pcie", "h100pcie")
                .memoryBandwidth(2.0 * T, Source.datasheet(H100 + " (PCIe column)"))
                .memoryCapacity(80 * GIB, capacity(H100, "80GB HBM2e (PCIe column)"))
                .smCount(114, Source.datasheet(HOPPER_WP))
                .l2(50 * MIB, Source.estimate(HOPPER_WP, "same L2 as the SXM part assumed"))
                .computeCapability("9.0", Source.datasheet(HOPPER_WP))
                .power(350, Source.datasheet(H100 + " (PCIe column, 300-350 W configurable)"));
        dense(b, 51, TENSOR_CORE, H100 + " (PCIe column)", Precision.FP64);
        dense(b, 51, CUDA_CORE, H100 + " (PCIe column)", Precision.FP32);
        hopperTensorCores(b, H100 + " (PCIe column)", 756, 1513, 3026);
        return b.build();
    }

    static Hardware h200() {
        Hardware.Builder b = Hardware.newBuilder("H200")
                .aliases("h200-sxm", "h200sxm")
                .memoryBandwidth(4.8 * T, Source.datasheet(H200))
                .memoryCapacity(141 * GIB, capacity(H200, "141GB HBM3e"))
                .smCount(132, Source.datasheet(HOPPER_WP + " (same GH100 configuration as H100 SXM)"))
                .l2(
                        60 * MIB,
                        Source.estimate(
                                "PyTorch device properties of an H200 (L2_cache_size=60MB)", "not published by NVIDIA"))
                .computeCapability("9.0", Source.datasheet(HOPPER_WP))
                .power(700, Source.datasheet(H200 + " (up to 700 W)"));
        dense(b, 67, TENSOR_CORE, H200, Precision.FP64);
        dense(b, 67, CUDA_CORE, H200, Precision.FP32);
        hopperTensorCores(b, H200, 989, 1979, 3958);
        return b.build();
    }

    /** Blackwell data-center tensor cores: FP6 and the MX 8/6-bit formats at the FP8 rate, MXFP4 at the FP4 rate. */
    private static void blackwellTensorCores(
            Hardware.Builder b, String citation, double tf32, double fp16, double fp8, double fp4) {
        sparseQuoted(b, tf32, citation, Precision.TF32);
        sparseQuoted(b, fp16, citation, Precision.FP16, Precision.BF16);
        sparseQuoted(
                b,
                fp8,
                citation,
                Precision.FP8_E4M3,
                Precision.FP8_E5M2,
                Precision.INT8,
                Precision.MXFP8_E4M3,
                Precision.MXFP8_E5M2,
                Precision.MXFP6_E3M2,
                Precision.MXFP6_E2M3);
        sparseQuoted(b, fp4, citation, Precision.NVFP4, Precision.MXFP4);
    }

    static Hardware b200() {
        Hardware.Builder b = Hardware.newBuilder("B200")
                .aliases("hgx-b200", "b200-sxm")
                .memoryBandwidth(7.7 * T, Source.datasheet(HGX_B200 + " (7.7 TB/s; launch material said 8 TB/s)"))
                .memoryCapacity(180 * GIB, capacity(HGX_B200, "180GB HBM3e per GPU"))
                .smCount(148, Source.datasheet(B200_QUERY))
                .l2(
                        126 * MB,
                        Source.datasheet(
                                "NVIDIA Blackwell Tuning Guide, https://docs.nvidia.com/cuda/blackwell-tuning-guide/"))
                .computeCapability("10.0", Source.datasheet(B200_QUERY))
                .power(1000, Source.datasheet(HGX_B200));
        dense(b, 37, TENSOR_CORE, HGX_B200, Precision.FP64);
        dense(b, 75, CUDA_CORE, HGX_B200, Precision.FP32);
        blackwellTensorCores(b, HGX_B200, 2200, 4500, 9000, 18000);
        return b.build();
    }

    static Hardware gb200() {
        Hardware.Builder b = Hardware.newBuilder("GB200")
                .aliases("gb200-nvl72", "gb200nvl72")
                .memoryBandwidth(8.0 * T, Source.datasheet(NVL72))
                .memoryCapacity(186 * GIB, capacity(NVL72, "186GB HBM3e per GPU"))
                .smCount(148, Source.estimate(B200_QUERY, "not published for GB200; assumed equal to B200"))
                .l2(126 * MB, Source.estimate("NVIDIA Blackwell Tuning Guide", "assumed equal to B200"))
                .computeCapability("10.0", Source.datasheet(NVL72))
                .power(1200, Source.datasheet(NVL72 + " (up to 1200 W per GPU)"));
        dense(b, 40, TENSOR_CORE, NVL72, Precision.FP64);
        dense(b, 80, CUDA_CORE, NVL72, Precision.FP32);
        blackwellTensorCores(b, NVL72, 2500, 5000, 10000, 20000);
        return b.build();
    }

    /** A100 prints dense and sparse; it has INT4 tensor cores and no FP8. */
    static Hardware a100Sxm80() {
        Hardware.Builder b = Hardware.newBuilder("A100 SXM 80GB")
                .aliases("a100", "a100-sxm", "a100-80gb")
                .memoryBandwidth(2039 * GB, Source.datasheet(A100))
                .memoryCapacity(80 * GIB, capacity(A100, "80GB HBM2e (80GB SXM column)"))
                .smCount(108, Source.datasheet(AMPERE_WP))
                .l2(40 * MIB, Source.datasheet(AMPERE_WP))
                .computeCapability("8.0", Source.datasheet(AMPERE_WP))
                .power(400, Source.datasheet(A100));
        dense(b, 19.5, TENSOR_CORE, A100, Precision.FP64);
        dense(b, 19.5, CUDA_CORE, A100, Precision.FP32);
        dense(b, 156, TENSOR_CORE, A100, Precision.TF32);
        dense(b, 312, TENSOR_CORE, A100, Precision.FP16, Precision.BF16);
        dense(b, 624, TENSOR_CORE, A100, Precision.INT8);
        dense(b, 1248, TENSOR_CORE, AMPERE_WP, Precision.INT4);
        for (Precision p :
                new Precision[] {Precision.TF32, Precision.FP16, Precision.BF16, Precision.INT8, Precision.INT4}) {
            b.sparseCeiling(p, 2 * b.denseFlops(p), Source.datasheet(A100 + " (with-sparsity column)"));
        }
        return b.build();
    }
}
