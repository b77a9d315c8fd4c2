package dev.roofline.cuda.bench;

import dev.roofline.core.precision.ScaleFormat;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DeviceInputsTest {

    @Test
    void unitScaleCodesAreOneInEachFormat() {
        // E4M3: sign 0, exponent 7 (bias 7) -> 1.0, mantissa 0: 0 0111 000 = 0x38 (OCP FP8 spec)
        assertThat(DeviceInputs.unitScaleCode(ScaleFormat.E4M3)).isEqualTo((byte) 0x38);
        // E8M0: 2^(code - 127), so 1.0 is code 127 (OCP MX spec)
        assertThat(DeviceInputs.unitScaleCode(ScaleFormat.E8M0)).isEqualTo((byte) 0x7F);
    }

    @Test
    void wideScaleFormatsAreNotBlockScales() {
        assertThatThrownBy(() -> DeviceInputs.unitScaleCode(ScaleFormat.FP32))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("FP32");
    }
}
