package dev.roofline.cuda.blas;

import dev.roofline.core.hardware.ComputeCapability;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BlockScaledLimitsTest {

    @Test
    void scalesOnA16ByteBoundaryPassAndOthersAreRefusedByName() {
        assertThatCode(() -> BlockScaledLimits.requireAlignedScales("weightBlockScales", 0x7f0000000000L))
                .doesNotThrowAnyException();
        assertThatCode(() -> BlockScaledLimits.requireAlignedScales("weightBlockScales", 0x7f0000000010L))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> BlockScaledLimits.requireAlignedScales("activationBlockScales", 0x7f0000000008L))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("activationBlockScales: cuBLASLt needs block scales to start on a 16-byte")
                .hasMessageContaining("0x7f0000000008");
    }

    @Test
    void onlyComputeCapability12GetsTheNoteWithItsSources() {
        assertThat(BlockScaledLimits.noAlgorithmNote(new ComputeCapability(10, 0), "NVFP4 -> BF16", 130100))
                .isEmpty();
        assertThat(BlockScaledLimits.noAlgorithmNote(new ComputeCapability(9, 0), "NVFP4 -> BF16", 130100))
                .isEmpty();
        for (ComputeCapability cc :
                new ComputeCapability[] {new ComputeCapability(12, 0), new ComputeCapability(12, 1)}) {
            assertThat(BlockScaledLimits.noAlgorithmNote(cc, "MXFP8 E4M3 -> BF16", 130100))
                    .contains("MXFP8 E4M3 -> BF16 on compute capability " + cc + " (cuBLASLt 130100)")
                    .contains("CUDA 12.8 Update 1")
                    .contains("pytorch/pytorch#198126")
                    .contains("NVIDIA/TransformerEngine#1939");
        }
    }
}
