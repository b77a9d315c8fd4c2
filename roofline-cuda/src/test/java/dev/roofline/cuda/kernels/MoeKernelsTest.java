package dev.roofline.cuda.kernels;

import dev.roofline.cuda.FakeDeviceBuffers;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The grouped GEMVs' kernel choice and grid, worked out by hand; no GPU needed. */
class MoeKernelsTest {

    @Test
    void mixtralsGateUpAtBatchOneRunsEightRowsPerBlockOverEveryExpert() {
        // 8 experts x 2 x 14336 rows of 4096: N = 28672 per expert; FP16 at one row: 4 warps x 2 rows = 8 rows a block
        MoeKernels.Grouped g = MoeKernels.Grouped.of(weights(WeightFormat.FP16, 8 * 28672, 4096), 8, 1, 2);
        assertThat(g.n()).isEqualTo(28672);
        assertThat(g.rowsPerBlock()).isEqualTo(8);
        assertThat(g.threads()).isEqualTo(128);
        // one token picks 2 experts: 2 groups of 28672 / 8 blocks, none for the 6 experts it leaves
        assertThat(g.grid()).isEqualTo(2 * 28672 / 8);
        assertThat(MoeKernels.kernelName(false, WeightFormat.FP16, 1, g.n())).isEqualTo("moe_up_fp16_f16_m1");
    }

    @Test
    void fourBitExpertsRunTheTensorCoreKernelsWithTheDenseKSplit() {
        // NVFP4 down at batch 4: 16 rows a block, N = 4096 per expert = 256 blocks < 384, so 16 warps; 4 tokens x 2
        // may pick all 8 experts
        MoeKernels.Grouped g = MoeKernels.Grouped.of(weights(WeightFormat.NVFP4, 8 * 4096, 14336), 8, 4, 2);
        assertThat(g.rowsPerBlock()).isEqualTo(16);
        assertThat(g.threads()).isEqualTo(512);
        assertThat(g.grid()).isEqualTo(8 * 256);
        assertThat(MoeKernels.kernelName(true, WeightFormat.NVFP4, 4, 4096)).isEqualTo("moe_down_nvfp4_f16_m16_w16");
    }

    @Test
    void everyKernelNameIsOneTheFatbinHolds() {
        // FP16, BF16, FP8, INT8 x up/down: m1 on the CUDA cores, m16 on the tensor cores x 2 splits; INT4, NVFP4 x
        // up/down x m1/m16 x 2 splits; top-k, combine
        assertThat(MoeKernels.kernelNames())
                .hasSize(4 * 2 * (1 + 2) + 16 + 2)
                .contains(
                        "moe_up_int4_f16_m16_w8",
                        "moe_down_fp8_f16_m16_w16",
                        "moe_up_int8_f16_m1",
                        "moe_up_bf16_f16_m16_w8",
                        "moe_top_k_f16");
    }

    @Test
    void mxfp4ExpertsAreRefusedByName() {
        assertThatThrownBy(() -> MoeKernels.requireFormat(WeightFormat.MXFP4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the grouped expert GEMVs have no MXFP4 kernel");
    }

    @Test
    void stacksAndRoutingsTheKernelsCannotTakeAreNamed() {
        assertThatThrownBy(() -> MoeKernels.Grouped.of(weights(WeightFormat.FP16, 100, 256), 8, 1, 2))
                .hasMessage("a stack of 8 experts needs a multiple of 8 rows, got 100");
        assertThatThrownBy(() -> MoeKernels.routing(17, 8, 2)).hasMessage("rows (tokens) must be 1..16, got 17");
        assertThatThrownBy(() -> MoeKernels.routing(1, 129, 2)).hasMessage("experts must be 1..128, got 129");
        assertThatThrownBy(() -> MoeKernels.routing(1, 4, 5)).hasMessage("topK must be 1..4 for 4 experts, got 5");
    }

    private static DeviceWeights weights(WeightFormat f, int rows, int cols) {
        return new DeviceWeights(
                f,
                rows,
                cols,
                FakeDeviceBuffers.buffer(f.weightBytes(rows, cols), () -> {}),
                f.deviceScaleBytes(rows, cols) == 0
                        ? null
                        : FakeDeviceBuffers.buffer(f.deviceScaleBytes(rows, cols), () -> {}),
                1f);
    }
}
