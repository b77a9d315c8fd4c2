package dev.roofline.cuda.kernels;

import dev.roofline.core.precision.Precision;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The KV cache's storage rule, against E4M3 and BF16 values worked out by hand. */
class KvCacheFormatTest {

    @Test
    void fp8StoresValueOverScaleRoundedToE4M3() {
        KvCacheFormat kv = KvCacheFormat.fp8(0.5f, 0.25f);
        // 3.1 / 0.5 = 6.2; E4M3 steps by 0.5 in [4, 8): 6.0, times 0.5 = 3.0
        assertThat(kv.roundKey(3.1)).isEqualTo(3.0);
        // 3.1 / 0.25 = 12.4; steps of 1 in [8, 16): 12, times 0.25 = 3.0
        assertThat(kv.roundValue(3.1)).isEqualTo(3.0);
        // 0.3 / 0.25 = 1.2; steps of 0.125 in [1, 2): 1.25 (1.2 is nearer 1.25 than 1.125), times 0.25 = 0.3125
        assertThat(kv.roundValue(0.3)).isEqualTo(0.3125);
        // beyond the largest finite code it saturates: 1000 / 0.5 = 2000 -> 448, times 0.5 = 224
        assertThat(kv.roundKey(1000)).isEqualTo(224.0);
        assertThat(kv.roundKey(-1000)).isEqualTo(-224.0);
        assertThat(kv.elementBytes()).isEqualTo(1);
    }

    @Test
    void sixteenBitCachesRoundToTheirOwnGrid() {
        // BF16 has 8 significant bits: 1 + 2^-8 is a tie between 1 and 1 + 2^-7, to even: 1
        assertThat(KvCacheFormat.BF16.roundKey(1 + Math.scalb(1.0, -8))).isEqualTo(1.0);
        assertThat(KvCacheFormat.BF16.roundKey(1 + 3 * Math.scalb(1.0, -8))).isEqualTo(1 + Math.scalb(1.0, -6));
        // FP16 has 11: 1 + 2^-11 ties to 1; 1 + 2^-10 is exact
        assertThat(KvCacheFormat.FP16.roundValue(1 + Math.scalb(1.0, -11))).isEqualTo(1.0);
        assertThat(KvCacheFormat.FP16.roundValue(1 + Math.scalb(1.0, -10))).isEqualTo(1 + Math.scalb(1.0, -10));
        assertThat(KvCacheFormat.of(Precision.BF16)).isEqualTo(KvCacheFormat.BF16);
        assertThat(KvCacheFormat.FP16.elementBytes()).isEqualTo(2);
    }

    @Test
    void badFormatsAreNamed() {
        assertThatThrownBy(() -> KvCacheFormat.of(Precision.NVFP4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NVFP4 is not built");
        assertThatThrownBy(() -> KvCacheFormat.fp8(0f, 1f)).hasMessage("keyScale must be positive and finite, got 0.0");
        assertThatThrownBy(() -> KvCacheFormat.fp8(1f, Float.NaN))
                .hasMessage("valueScale must be positive and finite, got NaN");
        assertThatThrownBy(() -> new KvCacheFormat(Precision.BF16, 2f, 1f))
                .hasMessageContaining("a BF16 cache holds values unscaled");
    }
}
