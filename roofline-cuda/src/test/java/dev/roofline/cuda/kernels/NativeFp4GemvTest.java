package dev.roofline.cuda.kernels;

import dev.roofline.core.hardware.ComputeCapability;
import dev.roofline.cuda.UnsupportedOnDeviceException;
import dev.roofline.cuda.kernels.NativeFp4Gemv.Instruction;
import dev.roofline.cuda.kernels.NativeFp4Gemv.Launch;
import dev.roofline.cuda.kernels.NativeFp4Gemv.Mma;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which native FP4 kernel a compute capability gets, without a GPU: the fatbin's targets decide. */
class NativeFp4GemvTest {

    private static ComputeCapability cc(String text) {
        return ComputeCapability.parse(text);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource({
        "10.0, TCGEN05", // B200, GB200: sm_100a machine code
        "12.0, MMA_SYNC", // GeForce / RTX PRO Blackwell: sm_120a
        "12.1, MMA_SYNC", // GB10: sm_121a
    })
    void theInstructionFollowsTheFatbinsBlackwellTargets(String capability, Instruction expected) {
        assertThat(Instruction.on(cc(capability))).contains(expected);
        assertThat(NativeFp4Gemv.hasInstruction(cc(capability))).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"8.9", "9.0", "10.1", "10.3", "11.0"})
    void otherCapabilitiesHaveNeither(String capability) {
        // sm_100a code runs on 10.0 only; B300 (10.3) and Thor (11.0) would need machine code of their own
        assertThat(Instruction.on(cc(capability))).isEmpty();
        assertThat(NativeFp4Gemv.hasInstruction(cc(capability))).isFalse();
    }

    @Test
    void computeCapability10_0RunsTheTcgen05KernelWithKSplitOverAClusterBelow296Tiles() {
        // 4096 rows: 32 tiles of 128, each split over 4 CTAs; any M up to 8 is one kernel (N = 8 of the MMA)
        assertThat(NativeFp4Gemv.launch(1, 4096, Mma.HARDWARE, cc("10.0")))
                .isEqualTo(new Launch("gemv_nvfp4_w4a4_sm100_s4", 128, 128));
        assertThat(NativeFp4Gemv.launch(8, 4096, Mma.HARDWARE, cc("10.0")))
                .isEqualTo(new Launch("gemv_nvfp4_w4a4_sm100_s4", 128, 128));
        // 37 rows: one tile (rows past N masked), 4 CTAs
        assertThat(NativeFp4Gemv.launch(3, 37, Mma.HARDWARE, cc("10.0")))
                .isEqualTo(new Launch("gemv_nvfp4_w4a4_sm100_s4", 4, 128));
        // 295 tiles still split (37760 = 295 x 128); 296 tiles (37761 .. 37888 rows) one CTA a tile
        assertThat(NativeFp4Gemv.launch(1, 37760, Mma.HARDWARE, cc("10.0")))
                .isEqualTo(new Launch("gemv_nvfp4_w4a4_sm100_s4", 1180, 128));
        assertThat(NativeFp4Gemv.launch(1, 37761, Mma.HARDWARE, cc("10.0")))
                .isEqualTo(new Launch("gemv_nvfp4_w4a4_sm100_s1", 296, 128));
        // Llama-3-8B's lm_head, 128256 rows: 1002 tiles
        assertThat(NativeFp4Gemv.launch(1, 128256, Mma.HARDWARE, cc("10.0")))
                .isEqualTo(new Launch("gemv_nvfp4_w4a4_sm100_s1", 1002, 128));
    }

    @Test
    void computeCapability12KeepsTheMmaSyncKernels() {
        // 16 rows a block: 4096 rows are 256 blocks (< 384: K over 16 warps), 28672 rows 1792 blocks (8 warps)
        assertThat(NativeFp4Gemv.launch(1, 4096, Mma.HARDWARE, cc("12.1")))
                .isEqualTo(new Launch("gemv_nvfp4_w4a4_m1_w16", 256, 512));
        assertThat(NativeFp4Gemv.launch(5, 28672, Mma.HARDWARE, cc("12.0")))
                .isEqualTo(new Launch("gemv_nvfp4_w4a4_m8_w8", 1792, 256));
    }

    @Test
    void theEmulatedKernelRunsEverywhere() {
        for (String capability : new String[] {"9.0", "10.0", "10.3", "12.1"}) {
            assertThat(NativeFp4Gemv.launch(1, 37, Mma.EMULATED, cc(capability)))
                    .isEqualTo(new Launch("gemv_nvfp4_w4a4_emulated_m1_w8", 3, 256));
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"9.0", "10.3", "11.0"})
    void theHardwareFormElsewhereIsTheTypedCapabilityError(String capability) {
        assertThatThrownBy(() -> NativeFp4Gemv.launch(1, 4096, Mma.HARDWARE, cc(capability)))
                .isInstanceOfSatisfying(UnsupportedOnDeviceException.class, e -> {
                    assertThat(e.required()).isEqualTo(cc("10.0"));
                    assertThat(e.actual()).isEqualTo(cc(capability));
                })
                .hasMessageContaining("kind::mxf4nvf4")
                .hasMessageContaining("needs compute capability 10.0 (sm_100a: tcgen05.mma;")
                .hasMessageContaining("or 12.x (sm_120a, sm_121a: mma.sync)")
                .hasMessageEndingWith("this GPU has " + capability);
    }

    @Test
    void theLibraryLooksUpBothInstructionsKernels() {
        assertThat(NativeFp4Gemv.kernelNames())
                .contains("gemv_nvfp4_w4a4_sm100_s1", "gemv_nvfp4_w4a4_sm100_s4")
                .contains("gemv_nvfp4_w4a4_m1_w8", "gemv_nvfp4_w4a4_m8_w16", "gemv_nvfp4_w4a4_emulated_m8_w8")
                .doesNotHaveDuplicates();
    }
}
