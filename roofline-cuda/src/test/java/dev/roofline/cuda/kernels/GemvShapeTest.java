package dev.roofline.cuda.kernels;

import dev.roofline.core.hardware.ComputeCapability;
import dev.roofline.cuda.Device;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class GemvShapeTest {
    private static final long BIG = 1L << 40;

    @Test
    void storedBytesMatchTheQuantizersLayouts() {
        // hand counts for W[4096x4096]: NVFP4 = 4096*4096/2 elements + one E4M3 byte per 16
        assertThat(WeightFormat.NVFP4.storedBytes(4096, 4096)).isEqualTo(8_388_608L + 1_048_576L);
        assertThat(WeightFormat.MXFP4.scaleBytes(4096, 4096)).isEqualTo(4096L * 128);
        assertThat(WeightFormat.INT4.scaleBytes(4096, 4096)).isEqualTo(4L * 4096 * 32);
        assertThat(WeightFormat.INT8.scaleBytes(4096, 4096)).isEqualTo(4L * 4096);
        assertThat(WeightFormat.FP16.scaleBytes(4096, 4096)).isZero();
    }

    @Test
    void mxfp4ScalesOnTheDeviceCarryEachRowsLargestCode() {
        assertThat(WeightFormat.MXFP4.deviceScaleBytes(4096, 4096)).isEqualTo(4096L * 128 + 4096);
        assertThat(WeightFormat.NVFP4.deviceScaleBytes(4096, 4096))
                .isEqualTo(WeightFormat.NVFP4.scaleBytes(4096, 4096));
        assertThat(WeightFormat.INT4.deviceScaleBytes(4096, 4096)).isEqualTo(WeightFormat.INT4.scaleBytes(4096, 4096));
        // W[2x64]: two E8M0 codes per row; 200 (above 127 as a signed byte) and 255 must compare unsigned
        byte[] scales = {(byte) 120, (byte) 127, (byte) 3, (byte) 200};
        assertThat(DeviceWeights.deviceScales(WeightFormat.MXFP4, 2, 64, scales))
                .containsExactly((byte) 120, (byte) 127, (byte) 3, (byte) 200, (byte) 127, (byte) 200);
        assertThat(DeviceWeights.deviceScales(WeightFormat.MXFP4, 1, 96, new byte[] {(byte) 255, 0, 1}))
                .containsExactly((byte) 255, 0, 1, (byte) 255);
        assertThat(scales).containsExactly((byte) 120, (byte) 127, (byte) 3, (byte) 200); // input untouched
        byte[] nvfp4 = new byte[8];
        assertThat(DeviceWeights.deviceScales(WeightFormat.NVFP4, 2, 64, nvfp4)).isSameAs(nvfp4);
        assertThatThrownBy(() -> DeviceWeights.deviceScales(WeightFormat.MXFP4, 2, 64, new byte[3]))
                .hasMessageContaining("MXFP4 2 x 64 has 4 scales bytes, got 3");
    }

    @Test
    void rejectsMxfp4ScalesWithoutTheRowMaxima() {
        // N x K/32 = 64 x 2 = 128 codes are the quantizer's layout; the kernels need 64 more
        assertThatThrownBy(() -> GemvShape.check(WeightFormat.MXFP4, 1, 64, 64, BIG, 128, BIG, BIG, 2))
                .hasMessageContaining("scales buffer holds 128 bytes")
                .hasMessageContaining("needs 192")
                .hasMessageContaining("each row's largest code");
        GemvShape.check(WeightFormat.MXFP4, 1, 64, 64, BIG, 192, BIG, BIG, 2); // exactly enough: no exception
    }

    @Test
    void predictionsCountTheBytesTheKernelsRead() {
        // roofline-core's storage of each format's precision is what the kernel reads, give or take a per-tensor or
        // per-row scale the prediction does not model (NVFP4: +4 B global; FP8 / INT8: -4 B per row; MXFP4 on the
        // tensor cores: +1 B per row, its largest code, which storedBytes leaves out as well)
        for (WeightFormat f : WeightFormat.values()) {
            long core = f.precision().storageBytes(4096, 4096);
            long slack =
                    f == WeightFormat.NVFP4 ? 4 : f == WeightFormat.FP8_E4M3 || f == WeightFormat.INT8 ? 4 * 4096 : 0;
            assertThat(Math.abs(core - f.storedBytes(4096, 4096))).as(f.name()).isEqualTo(slack);
        }
        // INT4: 4096*4096/2 elements + one FP32 scale per 128 of each row
        assertThat(WeightFormat.INT4.precision().storageBytes(4096, 4096)).isEqualTo(8_388_608L + 4L * 4096 * 32);
    }

    @Test
    void rejectsBatchOutside1To32() {
        assertThatThrownBy(() -> GemvShape.check(WeightFormat.FP16, 0, 64, 64, BIG, 0, BIG, BIG, 2))
                .hasMessageContaining("M (activation rows) must be 1..32, got 0");
        assertThatThrownBy(() -> GemvShape.check(WeightFormat.FP16, 33, 64, 64, BIG, 0, BIG, BIG, 2))
                .hasMessageContaining("got 33");
    }

    @Test
    void rejectsInt4KOutsideWholeGroups() {
        assertThatThrownBy(() -> GemvShape.check(WeightFormat.INT4, 1, 64, 96, BIG, BIG, BIG, BIG, 2))
                .hasMessageContaining("multiple of 128, got 96");
    }

    @Test
    void rejectsShortScaleBuffer() {
        assertThatThrownBy(() -> GemvShape.check(WeightFormat.NVFP4, 1, 64, 64, BIG, 255, BIG, BIG, 2))
                .hasMessageContaining("scales buffer holds 255 bytes")
                .hasMessageContaining("needs 256");
    }

    @Test
    void rejectsShortOutput() {
        assertThatThrownBy(() -> GemvShape.check(WeightFormat.FP8_E4M3, 2, 64, 64, BIG, BIG, BIG, 255, 2))
                .hasMessageContaining("y buffer holds 255 bytes");
    }

    @Test
    void kernelNamesMatchGemvCu() {
        // the 4-bit formats run on the tensor cores with either activations
        assertThat(GemvKernels.kernelName(WeightFormat.NVFP4, Activation.BF16, 1, 8192))
                .isEqualTo("gemv_nvfp4_bf16_m1_w8");
        assertThat(GemvKernels.kernelName(WeightFormat.INT4, Activation.BF16, 20, 4096))
                .isEqualTo("gemv_int4_bf16_m32_w16");
        assertThat(GemvKernels.kernelName(WeightFormat.FP8_E4M3, Activation.F16, 1, 8192))
                .isEqualTo("gemv_fp8_f16_m1");
        // one row of FP8 from 4096 to 6144 rows of K >= 4096 on the 8-row tensor-core kernel, 16 warps; not outside
        assertThat(GemvKernels.rowMajorLaunch(WeightFormat.FP8_E4M3, Activation.F16, 1, 4096, 4096, true)
                        .kernel())
                .isEqualTo("gemv_fp8_f16_m8_w16");
        assertThat(GemvKernels.rowMajorLaunch(WeightFormat.FP8_E4M3, Activation.F16, 1, 6144, 14336, true)
                        .kernel())
                .isEqualTo("gemv_fp8_f16_m8_w16");
        assertThat(GemvKernels.rowMajorLaunch(WeightFormat.FP8_E4M3, Activation.F16, 1, 4095, 4096, true)
                        .kernel())
                .isEqualTo("gemv_fp8_f16_m1");
        assertThat(GemvKernels.rowMajorLaunch(WeightFormat.FP8_E4M3, Activation.F16, 1, 6145, 4096, true)
                        .kernel())
                .isEqualTo("gemv_fp8_f16_m1");
        assertThat(GemvKernels.rowMajorLaunch(WeightFormat.FP8_E4M3, Activation.F16, 1, 4096, 4095, true)
                        .kernel())
                .isEqualTo("gemv_fp8_f16_m1");
        assertThat(GemvKernels.rowMajorLaunch(WeightFormat.FP8_E4M3, Activation.BF16, 1, 4096, 4096, true)
                        .kernel())
                .isEqualTo("gemv_fp8_bf16_m1");
        // one row of INT8 at 4096 rows of K >= 4096 too; at 6144 rows or shorter rows not; INT8 takes no epilogue
        assertThat(GemvKernels.rowMajorLaunch(WeightFormat.INT8, Activation.F16, 1, 4096, 14336, true))
                .isEqualTo(new GemvKernels.RowMajorLaunch("gemv_int8_f16_m8_w16", 256, 512));
        assertThat(GemvKernels.rowMajorLaunch(WeightFormat.INT8, Activation.F16, 1, 6144, 4096, true)
                        .kernel())
                .isEqualTo("gemv_int8_f16_m1");
        assertThat(GemvKernels.rowMajorLaunch(WeightFormat.INT8, Activation.F16, 1, 4096, 4095, true)
                        .kernel())
                .isEqualTo("gemv_int8_f16_m1");
        assertThatThrownBy(() -> GemvKernels.rowMajorLaunch(WeightFormat.INT8, Activation.F16, 1, 4096, 4096, false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageEndingWith("got INT8 weights with F16 activations at 1 rows");
        // its grid: 16 rows a block, 512 threads; the CUDA-core kernel's 8 rows a block of 128 threads beside it;
        // FP16 with an epilogue keeps the CUDA cores
        assertThat(GemvKernels.rowMajorLaunch(WeightFormat.FP8_E4M3, Activation.F16, 1, 6144, 4096, true))
                .isEqualTo(new GemvKernels.RowMajorLaunch("gemv_fp8_f16_m8_w16", 384, 512));
        assertThat(GemvKernels.rowMajorLaunch(WeightFormat.FP8_E4M3, Activation.F16, 1, 8192, 4096, true))
                .isEqualTo(new GemvKernels.RowMajorLaunch("gemv_fp8_f16_m1", 1024, 128));
        assertThat(GemvKernels.rowMajorLaunch(WeightFormat.FP16, Activation.F16, 3, 4096, 4096, false))
                .isEqualTo(new GemvKernels.RowMajorLaunch("gemv_fp16_f16_m16", 1024, 128));
        // above one row the rule by rows alone: 8 warps from 6144 rows
        assertThat(GemvKernels.rowMajorLaunch(WeightFormat.FP8_E4M3, Activation.F16, 2, 6144, 4096, true)
                        .kernel())
                .isEqualTo("gemv_fp8_f16_m8_w8");
        // FP8 with an epilogue: the same kernels' _ep twins, on the same grids, up to 8 rows
        assertThat(GemvKernels.rowMajorLaunch(WeightFormat.FP8_E4M3, Activation.F16, 1, 6144, 4096, false))
                .isEqualTo(new GemvKernels.RowMajorLaunch("gemv_fp8_f16_m8_w16_ep", 384, 512));
        assertThat(GemvKernels.rowMajorLaunch(WeightFormat.FP8_E4M3, Activation.F16, 1, 28672, 4096, false))
                .isEqualTo(new GemvKernels.RowMajorLaunch("gemv_fp8_f16_m1_ep", 3584, 128));
        assertThat(GemvKernels.rowMajorLaunch(WeightFormat.FP8_E4M3, Activation.F16, 8, 6144, 4096, false))
                .isEqualTo(new GemvKernels.RowMajorLaunch("gemv_fp8_f16_m8_w8_ep", 384, 256));
        assertThatThrownBy(
                        () -> GemvKernels.rowMajorLaunch(WeightFormat.FP8_E4M3, Activation.F16, 9, 4096, 4096, false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageEndingWith("got FP8_E4M3 weights with F16 activations at 9 rows");
        assertThatThrownBy(
                        () -> GemvKernels.rowMajorLaunch(WeightFormat.FP8_E4M3, Activation.BF16, 1, 4096, 4096, false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageEndingWith("got FP8_E4M3 weights with BF16 activations at 1 rows");
        assertThat(GemvKernels.runsEpilogue(WeightFormat.FP8_E4M3, Activation.F16, 8))
                .isTrue();
        assertThat(GemvKernels.runsEpilogue(WeightFormat.FP8_E4M3, Activation.F16, 9))
                .isFalse();
        assertThat(GemvKernels.runsEpilogue(WeightFormat.FP8_E4M3, Activation.BF16, 1))
                .isFalse();
        assertThat(GemvKernels.runsEpilogue(WeightFormat.FP16, Activation.F16, 16))
                .isTrue();
        assertThat(GemvKernels.runsEpilogue(WeightFormat.INT8, Activation.F16, 1))
                .isFalse();
        assertThat(GemvKernels.kernelNames())
                .contains("gemv_fp8_f16_m1_ep", "gemv_fp8_f16_m8_w8_ep", "gemv_fp8_f16_m8_w16_ep")
                .noneMatch(n -> n.endsWith("_ep") && !n.startsWith("gemv_fp8_f16_"));
        assertThat(GemvKernels.kernelName(WeightFormat.INT8, Activation.BF16, 3, 8192))
                .isEqualTo("gemv_int8_bf16_m16");
        // tensor-core kernels carry their K split: 8 warps from 384 blocks of 16 rows, else 16; every format with FP16
        // activations runs them above one row, _m8 up to 8 rows, _m16 above
        assertThat(GemvKernels.kernelName(WeightFormat.FP8_E4M3, Activation.F16, 3, 8192))
                .isEqualTo("gemv_fp8_f16_m8_w8");
        assertThat(GemvKernels.kernelName(WeightFormat.FP16, Activation.F16, 8, 1024))
                .isEqualTo("gemv_fp16_f16_m8_w16");
        assertThat(GemvKernels.kernelName(WeightFormat.FP16, Activation.F16, 9, 8192))
                .isEqualTo("gemv_fp16_f16_m16_w8");
        assertThat(GemvKernels.kernelName(WeightFormat.BF16, Activation.F16, 2, 8192))
                .isEqualTo("gemv_bf16_f16_m8_w8");
        // BF16 weights with BF16 activations too; FP16 weights with BF16 activations stay on the CUDA cores
        assertThat(GemvKernels.kernelName(WeightFormat.BF16, Activation.BF16, 16, 8192))
                .isEqualTo("gemv_bf16_bf16_m16_w8");
        assertThat(GemvKernels.kernelName(WeightFormat.FP16, Activation.BF16, 5, 8192))
                .isEqualTo("gemv_fp16_bf16_m16");
        assertThat(GemvKernels.kernelName(WeightFormat.BF16, Activation.BF16, 1, 8192))
                .isEqualTo("gemv_bf16_bf16_m1");
        assertThat(GemvKernels.kernelName(WeightFormat.INT8, Activation.F16, 16, 1024))
                .isEqualTo("gemv_int8_f16_m16_w16");
        assertThat(GemvKernels.kernelName(WeightFormat.NVFP4, Activation.F16, 1, 8192))
                .isEqualTo("gemv_nvfp4_f16_m1_w8");
        assertThat(GemvKernels.kernelName(WeightFormat.INT4, Activation.F16, 16, 4096))
                .isEqualTo("gemv_int4_f16_m16_w16");
        assertThat(GemvKernels.kernelName(WeightFormat.NVFP4, Activation.F16, 8, 4096))
                .isEqualTo("gemv_nvfp4_f16_m8_w16");
        assertThat(GemvKernels.kernelName(WeightFormat.MXFP4, Activation.F16, 1, 6144))
                .isEqualTo("gemv_mxfp4_f16_m1_w8");
        assertThat(GemvKernels.kernelName(WeightFormat.MXFP4, Activation.F16, 1, 1024))
                .isEqualTo("gemv_mxfp4_f16_m1_w16");
        // 17..32 rows: the tensor cores' _m32; the CUDA cores stop at 16
        assertThat(GemvKernels.kernelName(WeightFormat.NVFP4, Activation.F16, 17, 8192))
                .isEqualTo("gemv_nvfp4_f16_m32_w8");
        assertThat(GemvKernels.kernelName(WeightFormat.FP8_E4M3, Activation.F16, 32, 1024))
                .isEqualTo("gemv_fp8_f16_m32_w16");
        assertThat(GemvKernels.kernelName(WeightFormat.BF16, Activation.BF16, 24, 8192))
                .isEqualTo("gemv_bf16_bf16_m32_w8");
    }

    @Test
    void launchShapeFollowsGemvCu() {
        // ROOFLINE_GEMV_ALL: 2 rows per warp for 8- and 16-bit weights at M = 1, else 1; 4 warps per block
        assertThat(GemvKernels.rowsPerBlock(WeightFormat.FP16, Activation.F16, 1))
                .isEqualTo(8);
        assertThat(GemvKernels.rowsPerBlock(WeightFormat.INT8, Activation.BF16, 2))
                .isEqualTo(4);
        assertThat(GemvKernels.rowsPerBlock(WeightFormat.NVFP4, Activation.BF16, 1))
                .isEqualTo(16);
        assertThat(GemvKernels.rowsPerBlock(WeightFormat.NVFP4, Activation.F16, 1))
                .isEqualTo(16);
        assertThat(GemvKernels.rowsPerBlock(WeightFormat.FP8_E4M3, Activation.F16, 2))
                .isEqualTo(16);
        assertThat(GemvKernels.threadsPerBlock(WeightFormat.FP8_E4M3, Activation.F16, 1, 100))
                .isEqualTo(128);
        assertThat(GemvKernels.threadsPerBlock(WeightFormat.FP8_E4M3, Activation.F16, 8, 100))
                .isEqualTo(512);
        assertThat(GemvKernels.rowsPerBlock(WeightFormat.BF16, Activation.BF16, 4))
                .isEqualTo(16);
        assertThat(GemvKernels.rowsPerBlock(WeightFormat.FP16, Activation.BF16, 4))
                .isEqualTo(4);
        assertThat(GemvKernels.threadsPerBlock(WeightFormat.INT4, Activation.F16, 1, 6144))
                .isEqualTo(256);
        assertThat(GemvKernels.threadsPerBlock(WeightFormat.INT4, Activation.F16, 1, 6128))
                .isEqualTo(512);
        assertThat(GemvKernels.threadsPerBlock(WeightFormat.MXFP4, Activation.F16, 16, 28672))
                .isEqualTo(256);
    }

    @Test
    void theTiledKernelsBoundRowsAsTheTensorCoreKernelsAndTakeTwoTilesAt16Rows() {
        assertThat(java.util.stream.IntStream.rangeClosed(1, 32)
                        .map(m -> GemvKernels.rowsBound(WeightFormat.NVFP4, Activation.F16, m))
                        .distinct())
                .containsExactly(1, 8, 16, 32);
        assertThat(GemvKernels.rowsBound(WeightFormat.INT4, Activation.F16, 9)).isEqualTo(16);
        assertThat(GemvKernels.rowsBound(WeightFormat.MXFP4, Activation.F16, 17))
                .isEqualTo(32);
        assertThat(GemvKernels.tiledTiles(1)).isEqualTo(1);
        assertThat(GemvKernels.tiledTiles(8)).isEqualTo(1);
        assertThat(GemvKernels.tiledTiles(16)).isEqualTo(2);
        assertThat(GemvKernels.tiledTiles(32)).isEqualTo(1);
    }

    private static final ComputeCapability HOPPER = new ComputeCapability(9, 0);

    /** Peak DRAM bytes per SM and cycle ({@link GemvKernels#dramBytesPerSmCycle}) of an H200, with its clocks. */
    private static final double H200_BYTES_PER_SM_CYCLE = GemvKernels.dramBytesPerSmCycle(
            new Device(0, "NVIDIA H200", HOPPER, 132, 141L << 30, 60L << 20, 1_980_000, 3_201_000, 6016));

    /** The same of an H100 SXM. */
    private static final double H100_BYTES_PER_SM_CYCLE = GemvKernels.dramBytesPerSmCycle(
            new Device(0, "NVIDIA H100 80GB HBM3", HOPPER, 132, 80L << 30, 50L << 20, 1_980_000, 2_619_000, 5120));

    /** The kernel {@link GemvKernels#tiledLaunch} picks on a GPU with an H200's DRAM bytes per SM and cycle. */
    private static String kernel(WeightFormat format, Activation activation, int m, int rows, int cols, int smCount) {
        return GemvKernels.tiledLaunch(format, activation, m, rows, cols, smCount, H200_BYTES_PER_SM_CYCLE)
                .kernel();
    }

    @Test
    void int4AtOneRowRunsItsFewBlocksKernelUpToTwoBlocksAnSmThenTheRollingOneUpToOneWaveThenTheFullestLastWave() {
        // 132 SMs x 2 = 264 blocks of 16 rows = 4224 rows, x 4 = 528 = 8448 rows; 48 SMs: 96 (1536 rows), 192 (3072)
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 1, 4096, 14336, 132))
                .isEqualTo("gemv_int4_f16_m1_tiled_b3");
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 1, 4224, 4096, 132))
                .isEqualTo("gemv_int4_f16_m1_tiled_b3");
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 1, 16, 128, 132)).isEqualTo("gemv_int4_f16_m1_tiled_b3");
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 1, 1536, 8192, 48)).isEqualTo("gemv_int4_f16_m1_tiled_b3");
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 1, 4240, 4096, 132))
                .isEqualTo("gemv_int4_f16_m1_tiled_r2");
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 1, 6144, 4096, 132))
                .isEqualTo("gemv_int4_f16_m1_tiled_r2");
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 1, 8192, 4096, 132))
                .isEqualTo("gemv_int4_f16_m1_tiled_r2");
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 1, 8448, 4096, 132))
                .isEqualTo("gemv_int4_f16_m1_tiled_r2");
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 1, 8464, 4096, 132))
                .isEqualTo("gemv_int4_f16_m1_tiled");
        // above one wave of the window (528 blocks on 132 SMs) the fullest last wave of the plain kernel (waves of
        // 660 blocks), _b3 (396), _r2 (528) and _w2 (2112), the first of them on a tie: 529 blocks (529/660, 133/396,
        // 1/528, 529/2112): plain (8464 rows, above); 640 (640/660, 244/396, 112/528, 640/2112): plain; 704 (44/660,
        // 308/396, 176/528, 704/2112): _b3; 896 (236, 104, 368, 896): _r2; 1792 (472, 208, 208, 1792): _w2; 2560 (580,
        // 184, 448, 448): plain; 3584 (284, 20, 416, 1472): _r2
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 1, 10240, 8192, 132))
                .isEqualTo("gemv_int4_f16_m1_tiled");
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 1, 11264, 4096, 132))
                .isEqualTo("gemv_int4_f16_m1_tiled_b3");
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 1, 14336, 4096, 132))
                .isEqualTo("gemv_int4_f16_m1_tiled_r2");
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 1, 28672, 4096, 132))
                .isEqualTo("gemv_int4_f16_m1_tiled_w2");
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 1, 28672, 8192, 132))
                .isEqualTo("gemv_int4_f16_m1_tiled_w2");
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 1, 40960, 4096, 132))
                .isEqualTo("gemv_int4_f16_m1_tiled");
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 1, 57344, 8192, 132))
                .isEqualTo("gemv_int4_f16_m1_tiled_r2");
        // 48 SMs, waves of 240, 144, 192 and 768: 256 blocks (16, 112, 64, 256): _b3; 480 (240, 48, 96, 480): plain
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 1, 1552, 4096, 48)).isEqualTo("gemv_int4_f16_m1_tiled_r2");
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 1, 3072, 4096, 48)).isEqualTo("gemv_int4_f16_m1_tiled_r2");
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 1, 4096, 4096, 48)).isEqualTo("gemv_int4_f16_m1_tiled_b3");
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 1, 7680, 4096, 48)).isEqualTo("gemv_int4_f16_m1_tiled");
        // the window of 2 warps launches 64 threads a block, the others 256
        assertThat(GemvKernels.tiledLaunch(WeightFormat.INT4, Activation.F16, 1, 28672, 4096, 132, 18.4)
                        .warps())
                .isEqualTo(2);
        assertThat(GemvKernels.tiledLaunch(WeightFormat.INT4, Activation.F16, 1, 14336, 4096, 132, 18.4)
                        .warps())
                .isEqualTo(8);
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 8, 4096, 4096, 132))
                .isEqualTo("gemv_int4_f16_m8_tiled");
        // NVFP4: 4 steps a trip at 4 blocks an SM up to 528 blocks (8448 rows) on 132 SMs, the plain kernel above
        assertThat(kernel(WeightFormat.NVFP4, Activation.F16, 1, 4096, 4096, 132))
                .isEqualTo("gemv_nvfp4_f16_m1_tiled_b4");
        assertThat(kernel(WeightFormat.NVFP4, Activation.F16, 1, 8448, 8192, 132))
                .isEqualTo("gemv_nvfp4_f16_m1_tiled_b4");
        assertThat(kernel(WeightFormat.NVFP4, Activation.F16, 1, 8464, 8192, 132))
                .isEqualTo("gemv_nvfp4_f16_m1_tiled");
        assertThat(kernel(WeightFormat.NVFP4, Activation.F16, 1, 28672, 4096, 132))
                .isEqualTo("gemv_nvfp4_f16_m1_tiled");
        // BF16 activations: the plain tiled kernels of that type at every grid
        assertThat(kernel(WeightFormat.INT4, Activation.BF16, 1, 4096, 4096, 132))
                .isEqualTo("gemv_int4_bf16_m1_tiled");
        assertThat(kernel(WeightFormat.NVFP4, Activation.BF16, 16, 4096, 4096, 132))
                .isEqualTo("gemv_nvfp4_bf16_m16_tiled");
    }

    @Test
    void lastWaveFillIsTheShareOfAWaveTheLastBlocksTake() {
        assertThat(GemvKernels.lastWaveFill(896, 528)).isEqualTo(368.0 / 528);
        assertThat(GemvKernels.lastWaveFill(1056, 528)).isEqualTo(1.0);
        assertThat(GemvKernels.lastWaveFill(1, 660)).isEqualTo(1.0 / 660);
        assertThat(GemvKernels.lastWaveFill(660, 660)).isEqualTo(1.0);
        // ties go to the first
        assertThat(GemvKernels.fullestLastWave(GemvKernels.INT4_M1_WAVES, 3960, 132)
                        .suffix())
                .isEmpty();
        assertThat(GemvKernels.fullestLastWave(GemvKernels.INT4_M1_WAVES, 1792, 132)
                        .suffix())
                .isEqualTo("_w2");
    }

    @Test
    void nvfp4AndMxfp4AtOneRowAnd9To16RowsSplitEachBlocksKOverAClusterOfTwoUpToTwoTilesAnSmOnRowsOfAtLeast8192() {
        // 132 SMs take up to 264 tiles (4224 rows), 48 SMs 96 (1536 rows); K from 8192
        for (WeightFormat f : new WeightFormat[] {WeightFormat.NVFP4, WeightFormat.MXFP4}) {
            String one = "gemv_" + f.kernelName() + "_f16_m1_tiled";
            assertThat(GemvKernels.tiledLaunch(f, Activation.F16, 1, 4096, 14336, 132, H200_BYTES_PER_SM_CYCLE))
                    .isEqualTo(new GemvKernels.TiledLaunch(one + "_k2", 1, 8, 2));
            assertThat(kernel(f, Activation.F16, 1, 4224, 8192, 132)).isEqualTo(one + "_k2");
            assertThat(kernel(f, Activation.F16, 1, 16, 8192, 132)).isEqualTo(one + "_k2");
            assertThat(kernel(f, Activation.F16, 1, 1536, 8192, 48)).isEqualTo(one + "_k2");
            assertThat(kernel(f, Activation.F16, 1, 4240, 8192, 132)).doesNotEndWith("_k2");
            assertThat(kernel(f, Activation.F16, 1, 4224, 8064, 132)).doesNotEndWith("_k2");
            assertThat(kernel(f, Activation.F16, 1, 1552, 8192, 48)).doesNotEndWith("_k2");
            assertThat(kernel(f, Activation.BF16, 1, 4096, 14336, 132))
                    .isEqualTo("gemv_" + f.kernelName() + "_bf16_m1_tiled");
            assertThat(kernel(f, Activation.F16, 2, 4096, 14336, 132)).doesNotEndWith("_k2");
            // at one row only where DRAM gives at least 15 bytes an SM and cycle (an H200, not an H100)
            assertThat(GemvKernels.tiledLaunch(f, Activation.F16, 1, 4096, 14336, 132, H100_BYTES_PER_SM_CYCLE)
                            .kernel())
                    .doesNotEndWith("_k2");
            assertThat(GemvKernels.tiledLaunch(f, Activation.F16, 16, 4096, 14336, 132, H100_BYTES_PER_SM_CYCLE)
                            .kernel())
                    .isEqualTo("gemv_" + f.kernelName() + "_f16_m16_tiled_k2");
            String stem = "gemv_" + f.kernelName() + "_f16_m16_tiled";
            for (int m : new int[] {9, 12, 16}) {
                assertThat(GemvKernels.tiledLaunch(f, Activation.F16, m, 4096, 14336, 132, H200_BYTES_PER_SM_CYCLE))
                        .isEqualTo(new GemvKernels.TiledLaunch(stem + "_k2", 2, 8, 2));
            }
            assertThat(kernel(f, Activation.F16, 16, 4224, 8192, 132)).isEqualTo(stem + "_k2");
            assertThat(kernel(f, Activation.F16, 16, 16, 8192, 132)).isEqualTo(stem + "_k2");
            assertThat(kernel(f, Activation.F16, 16, 1536, 8192, 48)).isEqualTo(stem + "_k2");
            assertThat(kernel(f, Activation.F16, 16, 4224, 8064, 132)).doesNotEndWith("_k2");
            assertThat(kernel(f, Activation.F16, 16, 4096, 4096, 132)).doesNotEndWith("_k2");
            assertThat(kernel(f, Activation.F16, 16, 4240, 14336, 132)).doesNotEndWith("_k2");
            assertThat(kernel(f, Activation.F16, 16, 1552, 8192, 48)).doesNotEndWith("_k2");
            assertThat(kernel(f, Activation.F16, 16, 8192, 8192, 132)).isEqualTo(stem);
            assertThat(kernel(f, Activation.BF16, 16, 4096, 14336, 132))
                    .isEqualTo("gemv_" + f.kernelName() + "_bf16_m16_tiled");
            assertThat(kernel(f, Activation.F16, 8, 4096, 14336, 132)).doesNotEndWith("_k2");
            assertThat(kernel(f, Activation.F16, 17, 4096, 14336, 132))
                    .isEqualTo("gemv_" + f.kernelName() + "_f16_m32_tiled");
        }
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 16, 4096, 14336, 132))
                .isEqualTo("gemv_int4_f16_m16_tiled");
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 1, 4096, 14336, 132))
                .isEqualTo("gemv_int4_f16_m1_tiled_b3");
        // a cluster of 2 for each block of two tiles, the last of which may hold one: 131 tiles, 66 blocks
        assertThat(new GemvKernels.TiledLaunch("k", 2, 8, 2).blocks(2096)).isEqualTo(132);
        assertThat(new GemvKernels.TiledLaunch("k", 2, 8, 2).blocks(16)).isEqualTo(2);
        assertThat(new GemvKernels.TiledLaunch("k", 2).blocks(2096)).isEqualTo(66);
    }

    @Test
    void mxfp4AtOneRowRunsTheRollingTiledKernelUpToTwoBlocksAnSmThenTheDiagonalOneUpToFour() {
        // 2 blocks an SM: 264 blocks of 16 rows (4224 rows) on 132 SMs, 96 (1536 rows) on 48; K under 8192, down to one
        // group (from 8192 the split kernel runs there)
        assertThat(kernel(WeightFormat.MXFP4, Activation.F16, 1, 4096, 4096, 132))
                .isEqualTo("gemv_mxfp4_f16_m1_tiled_r2");
        assertThat(kernel(WeightFormat.MXFP4, Activation.F16, 1, 4224, 8064, 132))
                .isEqualTo("gemv_mxfp4_f16_m1_tiled_r2");
        assertThat(kernel(WeightFormat.MXFP4, Activation.F16, 1, 1536, 128, 48))
                .isEqualTo("gemv_mxfp4_f16_m1_tiled_r2");
        // one block more, up to 4 an SM: 528 blocks (8448 rows) on 132 SMs, 192 (3072 rows) on 48
        assertThat(kernel(WeightFormat.MXFP4, Activation.F16, 1, 4240, 4096, 132))
                .isEqualTo("gemv_mxfp4_f16_m1_tiled_dg");
        assertThat(kernel(WeightFormat.MXFP4, Activation.F16, 1, 6144, 4096, 132))
                .isEqualTo("gemv_mxfp4_f16_m1_tiled_dg");
        assertThat(kernel(WeightFormat.MXFP4, Activation.F16, 1, 8192, 8192, 132))
                .isEqualTo("gemv_mxfp4_f16_m1_tiled_dg");
        assertThat(kernel(WeightFormat.MXFP4, Activation.F16, 1, 8448, 28672, 132))
                .isEqualTo("gemv_mxfp4_f16_m1_tiled_dg");
        assertThat(kernel(WeightFormat.MXFP4, Activation.F16, 1, 1552, 128, 48))
                .isEqualTo("gemv_mxfp4_f16_m1_tiled_dg");
        assertThat(kernel(WeightFormat.MXFP4, Activation.F16, 1, 3072, 4096, 48))
                .isEqualTo("gemv_mxfp4_f16_m1_tiled_dg");
        // above: the plain kernel
        assertThat(kernel(WeightFormat.MXFP4, Activation.F16, 1, 8464, 4096, 132))
                .isEqualTo("gemv_mxfp4_f16_m1_tiled");
        assertThat(kernel(WeightFormat.MXFP4, Activation.F16, 1, 28672, 8192, 132))
                .isEqualTo("gemv_mxfp4_f16_m1_tiled");
        assertThat(kernel(WeightFormat.MXFP4, Activation.F16, 1, 3088, 4096, 48))
                .isEqualTo("gemv_mxfp4_f16_m1_tiled");
        // BF16 activations and more rows have no diagonal kernel
        assertThat(kernel(WeightFormat.MXFP4, Activation.BF16, 1, 8192, 8192, 132))
                .isEqualTo("gemv_mxfp4_bf16_m1_tiled");
        assertThat(kernel(WeightFormat.MXFP4, Activation.F16, 2, 8192, 8192, 132))
                .isEqualTo("gemv_mxfp4_f16_m8_tiled");
    }

    @Test
    void int4AndMxfp4FromTwoToEightRowsRunTheRollingTiledKernelUpToHalfAWaveOfLongRows() {
        // the fewest steps a warp takes: K / (128 x 8 warps) rounded down, the window from 8; 2 blocks an SM: 264
        // blocks of 16 rows (4224 rows) on 132 SMs, 96 (1536 rows) on 48
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 8, 4096, 14336, 132))
                .isEqualTo("gemv_int4_f16_m8_tiled_r3");
        assertThat(kernel(WeightFormat.MXFP4, Activation.F16, 8, 4224, 8192, 132))
                .isEqualTo("gemv_mxfp4_f16_m8_tiled_r3");
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 8, 1536, 8192, 48)).isEqualTo("gemv_int4_f16_m8_tiled_r3");
        // K = 8064 is 63 groups: one warp takes 7 steps; K = 4096: 4
        assertThat(kernel(WeightFormat.MXFP4, Activation.F16, 8, 4096, 8064, 132))
                .isEqualTo("gemv_mxfp4_f16_m8_tiled");
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 8, 4096, 4096, 132))
                .isEqualTo("gemv_int4_f16_m8_tiled");
        // above half a wave: 265 blocks on 132 SMs, 8192 rows, 97 blocks on 48 SMs
        assertThat(kernel(WeightFormat.MXFP4, Activation.F16, 8, 4240, 14336, 132))
                .isEqualTo("gemv_mxfp4_f16_m8_tiled");
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 8, 8192, 28672, 132))
                .isEqualTo("gemv_int4_f16_m8_tiled");
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 8, 1552, 28672, 48))
                .isEqualTo("gemv_int4_f16_m8_tiled");
        // NVFP4, BF16 activations and 16 rows: no window
        assertThat(kernel(WeightFormat.NVFP4, Activation.F16, 8, 4096, 14336, 132))
                .isEqualTo("gemv_nvfp4_f16_m8_tiled");
        assertThat(kernel(WeightFormat.INT4, Activation.BF16, 8, 4096, 14336, 132))
                .isEqualTo("gemv_int4_bf16_m8_tiled");
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 16, 4096, 14336, 132))
                .isEqualTo("gemv_int4_f16_m16_tiled");
    }

    @Test
    void nvfp4From9To16RowsRunsOneTileABlockUpToThreeTilesAnSmOnRowsShorterThan8192() {
        // 3 tiles an SM: 396 tiles (6336 rows) on 132 SMs, 144 (2304 rows) on 48; K a multiple of 128 under 8192
        for (int m : new int[] {9, 12, 16}) {
            assertThat(kernel(WeightFormat.NVFP4, Activation.F16, m, 6336, 8064, 132))
                    .isEqualTo("gemv_nvfp4_f16_m16_tiled_b3");
        }
        assertThat(GemvKernels.tiledLaunch(
                        WeightFormat.NVFP4, Activation.F16, 16, 6144, 4096, 132, H200_BYTES_PER_SM_CYCLE))
                .isEqualTo(new GemvKernels.TiledLaunch("gemv_nvfp4_f16_m16_tiled_b3", 1));
        assertThat(new GemvKernels.TiledLaunch("gemv_nvfp4_f16_m16_tiled_b3", 1).blocks(6336))
                .isEqualTo(396);
        assertThat(kernel(WeightFormat.NVFP4, Activation.F16, 16, 16, 128, 132))
                .isEqualTo("gemv_nvfp4_f16_m16_tiled_b3");
        assertThat(kernel(WeightFormat.NVFP4, Activation.F16, 16, 2304, 4096, 48))
                .isEqualTo("gemv_nvfp4_f16_m16_tiled_b3");
        // on an H100 too
        assertThat(GemvKernels.tiledLaunch(
                                WeightFormat.NVFP4, Activation.F16, 16, 4096, 4096, 132, H100_BYTES_PER_SM_CYCLE)
                        .kernel())
                .isEqualTo("gemv_nvfp4_f16_m16_tiled_b3");
        // above 3 tiles an SM the two-tile kernel: 397 tiles (6352 rows) on 132 SMs, 145 (2320 rows) on 48
        assertThat(GemvKernels.tiledLaunch(
                        WeightFormat.NVFP4, Activation.F16, 16, 6352, 4096, 132, H200_BYTES_PER_SM_CYCLE))
                .isEqualTo(new GemvKernels.TiledLaunch("gemv_nvfp4_f16_m16_tiled", 2));
        assertThat(kernel(WeightFormat.NVFP4, Activation.F16, 16, 2320, 4096, 48))
                .isEqualTo("gemv_nvfp4_f16_m16_tiled");
        // rows of 8192 and more: the split kernel up to 2 tiles an SM, the two-tile one above
        assertThat(kernel(WeightFormat.NVFP4, Activation.F16, 16, 4096, 8192, 132))
                .isEqualTo("gemv_nvfp4_f16_m16_tiled_k2");
        assertThat(kernel(WeightFormat.NVFP4, Activation.F16, 16, 4240, 8192, 132))
                .isEqualTo("gemv_nvfp4_f16_m16_tiled");
        assertThat(kernel(WeightFormat.NVFP4, Activation.F16, 16, 4240, 14336, 132))
                .isEqualTo("gemv_nvfp4_f16_m16_tiled");
        // INT4, MXFP4, BF16 activations, and 2 to 8 or 17 to 32 rows: none
        assertThat(kernel(WeightFormat.INT4, Activation.F16, 16, 4096, 4096, 132))
                .isEqualTo("gemv_int4_f16_m16_tiled");
        assertThat(kernel(WeightFormat.MXFP4, Activation.F16, 16, 4096, 4096, 132))
                .isEqualTo("gemv_mxfp4_f16_m16_tiled");
        assertThat(kernel(WeightFormat.NVFP4, Activation.BF16, 16, 4096, 4096, 132))
                .isEqualTo("gemv_nvfp4_bf16_m16_tiled");
        assertThat(kernel(WeightFormat.NVFP4, Activation.F16, 8, 4096, 4096, 132))
                .isEqualTo("gemv_nvfp4_f16_m8_tiled");
        assertThat(kernel(WeightFormat.NVFP4, Activation.F16, 17, 4096, 4096, 132))
                .isEqualTo("gemv_nvfp4_f16_m32_tiled");
    }

    @Test
    void fromFiveToEightRowsLargeGridsRunTwoTilesABlockForMxfp4() {
        // MXFP4 above 3 tiles an SM (396 tiles = 6336 rows on 132 SMs)
        assertThat(GemvKernels.tiledLaunch(
                        WeightFormat.MXFP4, Activation.F16, 8, 8192, 28672, 132, H200_BYTES_PER_SM_CYCLE))
                .isEqualTo(new GemvKernels.TiledLaunch("gemv_mxfp4_f16_m8_tiled_t2", 2));
        assertThat(GemvKernels.tiledLaunch(
                        WeightFormat.MXFP4, Activation.F16, 8, 6352, 4096, 132, H200_BYTES_PER_SM_CYCLE))
                .isEqualTo(new GemvKernels.TiledLaunch("gemv_mxfp4_f16_m8_tiled_t2", 2));
        assertThat(GemvKernels.tiledLaunch(
                        WeightFormat.MXFP4, Activation.F16, 8, 6336, 4096, 132, H200_BYTES_PER_SM_CYCLE))
                .isEqualTo(new GemvKernels.TiledLaunch("gemv_mxfp4_f16_m8_tiled", 1));
        // 48 SMs: above 144 tiles (2304 rows)
        assertThat(GemvKernels.tiledLaunch(
                        WeightFormat.MXFP4, Activation.F16, 8, 2320, 4096, 48, H200_BYTES_PER_SM_CYCLE))
                .isEqualTo(new GemvKernels.TiledLaunch("gemv_mxfp4_f16_m8_tiled_t2", 2));
        // from 5 rows
        assertThat(GemvKernels.tiledLaunch(
                        WeightFormat.MXFP4, Activation.F16, 5, 28672, 4096, 132, H200_BYTES_PER_SM_CYCLE))
                .isEqualTo(new GemvKernels.TiledLaunch("gemv_mxfp4_f16_m8_tiled_t2", 2));
        assertThat(GemvKernels.tiledLaunch(
                        WeightFormat.MXFP4, Activation.F16, 4, 28672, 4096, 132, H200_BYTES_PER_SM_CYCLE))
                .isEqualTo(new GemvKernels.TiledLaunch("gemv_mxfp4_f16_m8_tiled", 1));
        // INT4 and NVFP4 keep one tile a block at any grid
        assertThat(GemvKernels.tiledLaunch(
                        WeightFormat.INT4, Activation.F16, 8, 28672, 4096, 132, H200_BYTES_PER_SM_CYCLE))
                .isEqualTo(new GemvKernels.TiledLaunch("gemv_int4_f16_m8_tiled", 1));
        assertThat(GemvKernels.tiledLaunch(
                        WeightFormat.NVFP4, Activation.F16, 8, 28672, 8192, 132, H200_BYTES_PER_SM_CYCLE))
                .isEqualTo(new GemvKernels.TiledLaunch("gemv_nvfp4_f16_m8_tiled", 1));
    }

    @Test
    void twoTilesABlockOnlyWithFp16ActivationsAtTheEightRowBound() {
        assertThat(GemvKernels.tiledLaunch(
                        WeightFormat.MXFP4, Activation.BF16, 8, 28672, 4096, 132, H200_BYTES_PER_SM_CYCLE))
                .isEqualTo(new GemvKernels.TiledLaunch("gemv_mxfp4_bf16_m8_tiled", 1));
        assertThat(GemvKernels.tiledLaunch(
                        WeightFormat.MXFP4, Activation.F16, 16, 28672, 4096, 132, H200_BYTES_PER_SM_CYCLE))
                .isEqualTo(new GemvKernels.TiledLaunch("gemv_mxfp4_f16_m16_tiled", 2));
        assertThat(GemvKernels.tiledLaunch(
                        WeightFormat.MXFP4, Activation.F16, 1, 28672, 4096, 132, H200_BYTES_PER_SM_CYCLE))
                .isEqualTo(new GemvKernels.TiledLaunch("gemv_mxfp4_f16_m1_tiled", 1));
    }

    @Test
    void twoTilesABlockOnlyWhereDramGivesFifteenBytesAnSmAndCycle() {
        // an H200: 2 x 3201 MHz x 6016 bits / 8 = 4814.3 GB/s over 132 SMs x 1.98 GHz = 18.42; an H100: 3352.3 / 261.36
        // = 12.83
        assertThat(H200_BYTES_PER_SM_CYCLE).isCloseTo(18.42, within(0.005));
        assertThat(H100_BYTES_PER_SM_CYCLE).isCloseTo(12.83, within(0.005));
        assertThat(GemvKernels.tiledLaunch(
                        WeightFormat.MXFP4, Activation.F16, 8, 28672, 4096, 132, H100_BYTES_PER_SM_CYCLE))
                .isEqualTo(new GemvKernels.TiledLaunch("gemv_mxfp4_f16_m8_tiled", 1));
        assertThat(GemvKernels.tiledLaunch(WeightFormat.MXFP4, Activation.F16, 8, 28672, 4096, 132, 15))
                .isEqualTo(new GemvKernels.TiledLaunch("gemv_mxfp4_f16_m8_tiled_t2", 2));
        assertThat(GemvKernels.tiledLaunch(WeightFormat.MXFP4, Activation.F16, 8, 28672, 4096, 132, 14.99))
                .isEqualTo(new GemvKernels.TiledLaunch("gemv_mxfp4_f16_m8_tiled", 1));
    }

    @Test
    void aTiledLaunchCoversEveryTileOnce() {
        // 8464 rows are 529 tiles: 265 blocks of two (the last one's second tile past N), 529 of one
        assertThat(new GemvKernels.TiledLaunch("gemv_mxfp4_f16_m8_tiled_t2", 2).blocks(8464))
                .isEqualTo(265);
        assertThat(new GemvKernels.TiledLaunch("gemv_int4_f16_m8_tiled", 1).blocks(8464))
                .isEqualTo(529);
        assertThat(new GemvKernels.TiledLaunch("gemv_int4_f16_m16_tiled", 2).blocks(8448))
                .isEqualTo(264);
    }

    @Test
    void theLauncherNamesEveryKernelOnce() {
        // the fatbin's entries are compressed (scripts/build-kernels.sh), so their names cannot be read here: loading
        // looks every one of these up and fails naming a missing one, which every GPU test of the kernels does
        // per format, F16 then BF16 activations: FP16 1 + 6 + 1 (its 16-row CUDA-core kernel, for an epilogue), 2;
        // BF16 7, 7; FP8 and INT8 7, 2, and FP8's 3 twins with an epilogue (m1, m8 on 2 K splits); each 4-bit format 8
        // + 4, 8 + 4 (a tensor-core kernel: 2 K splits; m1, m8,
        // m16, m32; and the tiled kernels, one per rows bound), INT4's and MXFP4's rolling one-row and 8-row tiled
        // kernels, INT4's and NVFP4's one-row kernels capped at 3 and 4 blocks an SM, MXFP4's diagonal one-row kernel,
        // INT4's one-row kernel of 2 warps a tile, MXFP4's two-tile 8-row one, NVFP4's and MXFP4's one- and 16-row
        // ones split over clusters and NVFP4's 16-row one of one tile a block (FP16)
        assertThat(GemvKernels.kernelNames())
                .hasSize(8 + 2 + 7 + 7 + 2 * (7 + 2) + 3 + 3 * (8 + 4 + 8 + 4) + 2 + 2 + 1 + 1 + 1 + 2 + 2 + 2 + 1)
                .doesNotHaveDuplicates();
        assertThat(GemvKernels.kernelNames())
                .contains(
                        "gemv_int4_f16_m1_tiled",
                        "gemv_int4_f16_m1_tiled_r2",
                        "gemv_int4_f16_m1_tiled_b3",
                        "gemv_int4_f16_m1_tiled_w2",
                        "gemv_nvfp4_f16_m1_tiled_b4",
                        "gemv_mxfp4_f16_m1_tiled_r2",
                        "gemv_mxfp4_f16_m1_tiled_dg",
                        "gemv_nvfp4_f16_m16_tiled_k2",
                        "gemv_mxfp4_f16_m16_tiled_k2",
                        "gemv_nvfp4_f16_m16_tiled_b3",
                        "gemv_nvfp4_f16_m1_tiled_k2",
                        "gemv_mxfp4_f16_m1_tiled_k2",
                        "gemv_mxfp4_f16_m8_tiled_t2",
                        "gemv_nvfp4_f16_m8_tiled",
                        "gemv_mxfp4_f16_m8_tiled_r3",
                        "gemv_mxfp4_f16_m16_tiled",
                        "gemv_nvfp4_f16_m32_tiled",
                        "gemv_int4_bf16_m1_tiled",
                        "gemv_mxfp4_bf16_m32_tiled")
                .doesNotContain(
                        "gemv_int4_f16_m1_tiled_r3",
                        "gemv_int4_bf16_m1_tiled_b3",
                        "gemv_int4_f16_m8_tiled_b3",
                        "gemv_nvfp4_f16_m1_tiled_b3",
                        "gemv_nvfp4_bf16_m1_tiled_b4",
                        "gemv_mxfp4_f16_m1_tiled_b4",
                        "gemv_mxfp4_bf16_m1_tiled_dg",
                        "gemv_nvfp4_f16_m1_tiled_dg",
                        "gemv_mxfp4_f16_m8_tiled_dg",
                        "gemv_int4_f16_m16_tiled_k2",
                        "gemv_mxfp4_f16_m16_tiled_b3",
                        "gemv_int4_f16_m16_tiled_b4",
                        "gemv_int4_f16_m1_tiled_k2",
                        "gemv_mxfp4_f16_m8_tiled_k2",
                        "gemv_nvfp4_bf16_m16_tiled_k2",
                        "gemv_mxfp4_f16_m32_tiled_k2",
                        "gemv_int4_bf16_m1_tiled_r2",
                        "gemv_nvfp4_f16_m1_tiled_r2",
                        "gemv_nvfp4_f16_m8_tiled_r3",
                        "gemv_mxfp4_f16_m8_tiled_r2",
                        "gemv_int4_bf16_m8_tiled_t2",
                        "gemv_int4_f16_m8_tiled_t2",
                        "gemv_nvfp4_f16_m8_tiled_t2",
                        "gemv_nvfp4_f16_m16_tiled_t2");
        assertThat(GemvKernels.kernelNames())
                .contains("gemv_fp16_f16_m16", "gemv_fp16_f16_m16_w8", "gemv_int8_bf16_m16", "gemv_mxfp4_bf16_m1_w16")
                .doesNotContain("gemv_nvfp4_bf16_m1", "gemv_int4_bf16_m16");
        assertThat(GemvKernels.kernelNames())
                .contains(GemvKernels.kernelName(WeightFormat.MXFP4, Activation.F16, 16, 100));
    }

    @Test
    void fatbinIsEmbedded() {
        byte[] fatbin = GemvKernels.embeddedFatbin();
        // fatbin header magic 0xBA55ED50, little-endian
        assertThat(fatbin).hasSizeGreaterThan(1000).startsWith((byte) 0x50, (byte) 0xED, (byte) 0x55, (byte) 0xBA);
    }
}
