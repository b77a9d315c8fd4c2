package dev.roofline.nvml;

import dev.roofline.bindings.error.NativeCallException;
import org.junit.jupiter.api.Test;

import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Modifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * NVML's exceptions read like roofline-cuda's: final, the unavailable one an {@link IllegalStateException}, and the
 * call failure a {@link NativeCallException} that users can name, because its package is exported to everyone and
 * roofline-nvml requires the bindings transitively.
 */
class ExceptionTypesTest {

    @Test
    void theExceptionsAreFinalAndUnavailableIsAnIllegalState() {
        assertThat(Modifier.isFinal(NvmlException.class.getModifiers())).isTrue();
        assertThat(Modifier.isFinal(NvmlUnavailableException.class.getModifiers()))
                .isTrue();
        assertThat(new NvmlUnavailableException("no driver", null)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aCallFailureIsCaughtAsNativeCallException() {
        RuntimeException thrown = new NvmlException("nvmlDeviceGetPowerUsage", 3, "NVML_ERROR_NOT_SUPPORTED", "");
        assertThat(thrown)
                .isInstanceOf(NativeCallException.class)
                .hasMessage("nvmlDeviceGetPowerUsage failed: NVML_ERROR_NOT_SUPPORTED (3)");
    }

    @Test
    void nativeCallExceptionsPackageIsExportedToEveryModuleAndReadTransitively() {
        ModuleDescriptor bindings = NativeCallException.class.getModule().getDescriptor();
        ModuleDescriptor nvml = NvmlException.class.getModule().getDescriptor();
        assumeTrue(bindings != null && nvml != null, "running on the class path: no module descriptors");
        assertThat(bindings.exports())
                .anySatisfy(e -> {
                    assertThat(e.source()).isEqualTo("dev.roofline.bindings.error");
                    assertThat(e.isQualified()).isFalse();
                })
                .allSatisfy(e -> assertThat(e.isQualified() || e.source().equals("dev.roofline.bindings.error"))
                        .as("only the error package is exported to everyone: " + e)
                        .isTrue());
        assertThat(nvml.requires()).anySatisfy(r -> {
            assertThat(r.name()).isEqualTo("dev.roofline.bindings");
            assertThat(r.modifiers()).contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE);
        });
    }
}
