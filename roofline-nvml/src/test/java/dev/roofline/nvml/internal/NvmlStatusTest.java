package dev.roofline.nvml.internal;

import dev.roofline.nvml.NvmlException;
import dev.roofline.nvml.NvmlMonitor;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class NvmlStatusTest {

    @Test
    void returnCodesMapToTheirNvmlHNames() {
        // nvml.h: NVML_SUCCESS = 0, NVML_ERROR_NOT_SUPPORTED = 3, NVML_ERROR_NO_PERMISSION = 4,
        // NVML_ERROR_DRIVER_NOT_LOADED = 9, NVML_ERROR_GPU_IS_LOST = 15, NVML_ERROR_UNKNOWN = 999
        assertThat(Nvml.name(0)).isEqualTo("NVML_SUCCESS");
        assertThat(Nvml.name(3)).isEqualTo("NVML_ERROR_NOT_SUPPORTED");
        assertThat(Nvml.name(4)).isEqualTo("NVML_ERROR_NO_PERMISSION");
        assertThat(Nvml.name(9)).isEqualTo("NVML_ERROR_DRIVER_NOT_LOADED");
        assertThat(Nvml.name(15)).isEqualTo("NVML_ERROR_GPU_IS_LOST");
        assertThat(Nvml.name(999)).isEqualTo("NVML_ERROR_UNKNOWN");
        assertThat(Nvml.name(4242)).isEqualTo("NVML_RETURN_4242");
    }

    @Test
    void exceptionsCarryFunctionCodeNameAndMessage() {
        NvmlException e =
                new NvmlException("nvmlDeviceGetPowerUsage", 4, "NVML_ERROR_NO_PERMISSION", "Insufficient Permissions");
        assertThat(e.getMessage())
                .isEqualTo("nvmlDeviceGetPowerUsage failed: NVML_ERROR_NO_PERMISSION (4): Insufficient Permissions");
        assertThat(e.function()).isEqualTo("nvmlDeviceGetPowerUsage");
        assertThat(e.code()).isEqualTo(4);
        assertThat(e.codeName()).isEqualTo("NVML_ERROR_NO_PERMISSION");
    }

    @Test
    void notSupportedIsAValueAndOtherErrorsThrow() {
        assertThat(Nvml.supported("f", 0)).isTrue();
        assertThat(Nvml.supported("f", 3)).isFalse();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Nvml.supported("nvmlDeviceGetTemperature", 15))
                .isInstanceOf(NvmlException.class)
                .hasMessageContaining("nvmlDeviceGetTemperature failed: NVML_ERROR_GPU_IS_LOST (15)");
    }

    @Test
    void withoutTheLibraryASessionSaysWhatWasTried() {
        var reason = NvmlMonitor.unavailableReason();
        org.junit.jupiter.api.Assumptions.assumeTrue(reason.isPresent(), "NVML is available here: nothing to check");
        // either the library is missing (every place tried is listed) or the driver refuses
        assertThat(reason.get())
                .containsAnyOf("NVML library not found", "NVML could not start", "native access denied");
        if (reason.get().contains("not found")) {
            assertThat(reason.get()).contains("libnvidia-ml.so.1");
        }
    }
}
