package dev.roofline.core.precision;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class PrecisionTest {

    /** Largest finite values as the IEEE 754 and OCP FP8 / MX v1.0 specifications tabulate them. */
    @ParameterizedTest
    @CsvSource({
        "FP16, 65504",
        "FP8_E4M3, 448",
        "FP8_E5M2, 57344",
        "MXFP8_E4M3, 448",
        "MXFP6_E3M2, 28",
        "MXFP6_E2M3, 7.5",
        "MXFP4, 6",
        "NVFP4, 6",
        "INT8, 127",
        "INT4, 7",
        "INT2, 1",
        "MXINT8, 1.984375",
        "NF4, 1"
    })
    void maxFiniteMatchesTheSpecifications(Precision p, double expected) {
        assertThat(p.maxFinite()).isEqualTo(expected);
    }

    @Test
    void wideFloatMaximaMatchJavaAndBf16Definition() {
        assertThat(Precision.FP64.maxFinite()).isEqualTo(Double.MAX_VALUE);
        assertThat(Precision.FP32.maxFinite()).isEqualTo(Float.MAX_VALUE);
        // BF16: 0x7F7F = (2 - 2^-7) * 2^127
        assertThat(Precision.BF16.maxFinite()).isEqualTo(Float.intBitsToFloat(0x7F7F0000));
    }

    @ParameterizedTest
    @CsvSource({
        "FP16, 5, 10, 15",
        "BF16, 8, 7, 127",
        "FP8_E4M3, 4, 3, 7",
        "FP8_E5M2, 5, 2, 15",
        "MXFP6_E3M2, 3, 2, 3",
        "MXFP6_E2M3, 2, 3, 1",
        "NVFP4, 2, 1, 1",
        "TF32, 8, 10, 127",
        "FP64, 11, 52, 1023"
    })
    void floatLayouts(Precision p, int e, int m, int bias) {
        assertThat(p.exponentBits()).isEqualTo(e);
        assertThat(p.mantissaBits()).isEqualTo(m);
        assertThat(p.exponentBias().getAsInt()).isEqualTo(bias);
        assertThat(p.elementBits()).isEqualTo(p == Precision.TF32 ? 32 : 1 + e + m);
    }

    @Test
    void integersHaveNoExponentBias() {
        assertThat(Precision.INT8.exponentBias()).isEmpty();
        assertThat(Precision.NF4.specials()).isEmpty();
    }

    @Test
    void blockFormatsDescribeTheirScales() {
        BlockScaling nvfp4 = Precision.NVFP4.blockScaling().orElseThrow();
        assertThat(nvfp4.blockSize()).isEqualTo(16);
        assertThat(nvfp4.scale()).isEqualTo(ScaleFormat.E4M3);
        assertThat(nvfp4.tensorScale()).isEqualTo(ScaleFormat.FP32);
        for (Precision mx : new Precision[] {
            Precision.MXFP8_E4M3,
            Precision.MXFP8_E5M2,
            Precision.MXFP6_E3M2,
            Precision.MXFP6_E2M3,
            Precision.MXFP4,
            Precision.MXINT8
        }) {
            assertThat(mx.blockScaling().orElseThrow().blockSize())
                    .as(mx.name())
                    .isEqualTo(32);
            assertThat(mx.blockScaling().orElseThrow().scale()).as(mx.name()).isEqualTo(ScaleFormat.E8M0);
        }
        assertThat(Precision.NF4.blockScaling().orElseThrow().blockSize()).isEqualTo(64);
        assertThat(Precision.NF4.blockScaling().orElseThrow().scale()).isEqualTo(ScaleFormat.FP32);
        assertThat(Precision.FP8_E4M3.blockScaling()).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({
        "NVFP4, 4.5",
        "MXFP4, 4.25",
        "MXFP6_E3M2, 6.25",
        "MXFP8_E4M3, 8.25",
        "MXINT8, 8.25",
        "NF4, 4.5",
        "INT4, 4",
        "FP16, 16"
    })
    void effectiveBitsSpreadTheBlockScale(Precision p, double bits) {
        // element bits + scale bits / block size: 4 + 8/16, 4 + 8/32, 6 + 8/32, 8 + 8/32, 4 + 16/64
        assertThat(p.effectiveBitsPerElement()).isEqualTo(bits);
    }

    @Test
    void nvfp4WeightsStoreElementsBlockScalesAndTheTensorScale() {
        long n = 4096, k = 4096;
        // N*K/2 element bytes + N*K/16 E4M3 scales + one FP32 tensor scale
        assertThat(Precision.NVFP4.storageBytes(n, k)).isEqualTo(n * k / 2 + n * k / 16 + 4);
    }

    @Test
    void aPartialBlockStillStoresAScale() {
        // 2 rows of 17: 34 FP4 values = 17 bytes; each row needs 2 blocks of 16 -> 4 E4M3 scales; + 4-byte tensor scale
        assertThat(Precision.NVFP4.storageBytes(2, 17)).isEqualTo(17 + 4 + 4);
        // MXFP6: 3 values = 18 bits -> 3 bytes, one E8M0 scale
        assertThat(Precision.MXFP6_E2M3.storageBytes(3)).isEqualTo(3 + 1);
        // MXFP4 row of 33: 17 bytes (ceil 16.5) + 2 scales
        assertThat(Precision.MXFP4.storageBytes(1, 33)).isEqualTo(17 + 2);
    }

    @Test
    void int4G128StoresOneFp32ScalePer128OfARow() {
        // 4096x4096: 8,388,608 element bytes + 4096 rows x 32 groups x 4 B = 524,288; 4.25 bits per element
        assertThat(Precision.INT4_G128.storageBytes(4096, 4096)).isEqualTo(8_388_608L + 524_288L);
        // 2 rows of 200: 200 element bytes; each row needs ceil(200/128) = 2 scales -> 16 B; no tensor scale
        assertThat(Precision.INT4_G128.storageBytes(2, 200)).isEqualTo(200 + 16);
        assertThat(Precision.INT4_G128.effectiveBitsPerElement()).isEqualTo(4.25);
        assertThat(Precision.parse("int4_g128")).isEqualTo(Precision.INT4_G128);
        assertThat(Precision.parse("int4")).isEqualTo(Precision.INT4);
    }

    @Test
    void nf4BlocksRunOverTheFlattenedTensor() {
        // 10x10 = 100 values = 50 bytes; ceil(100/64) = 2 FP32 absmax values = 8 bytes (rows do not restart blocks)
        assertThat(Precision.NF4.storageBytes(10, 10)).isEqualTo(50 + 2 * 4);
    }

    @Test
    void plainFormatsArePackedDensely() {
        assertThat(Precision.FP16.storageBytes(3, 5)).isEqualTo(30);
        assertThat(Precision.INT4.storageBytes(3)).isEqualTo(2);
        assertThat(Precision.INT2.storageBytes(5)).isEqualTo(2);
        assertThat(Precision.FP64.storageBytes(7)).isEqualTo(56);
    }

    @Test
    void hugeShapesDoNotOverflowWhenTheyFit() {
        // 2^60 INT4 elements = 2^59 bytes fits in a long even though 2^60 * 4 bits does not
        assertThat(Precision.INT4.storageBytes(1L << 30, 1L << 30)).isEqualTo(1L << 59);
    }

    @Test
    void storageSplitsIntoElementsAndScales() {
        // NVFP4 2 x 32: 64 elements of 4 bits = 32 B; 4 E4M3 block scales + one FP32 tensor scale = 8 B
        assertThat(Precision.NVFP4.elementBytes(2, 32)).isEqualTo(32);
        assertThat(Precision.NVFP4.scaleBytes(2, 32)).isEqualTo(4 + 4);
        assertThat(Precision.NVFP4.tensorScaleBytes()).isEqualTo(4);
        // MXFP4 has no tensor scale; FP16 has no scales at all
        assertThat(Precision.MXFP4.tensorScaleBytes()).isZero();
        assertThat(Precision.MXFP4.scaleBytes(2, 64)).isEqualTo(4);
        assertThat(Precision.FP16.scaleBytes(3, 5)).isZero();
        assertThat(Precision.FP16.elementBytes(3, 5)).isEqualTo(30);
        assertThatThrownBy(() -> Precision.NVFP4.scaleBytes(2, 0)).hasMessageContaining("shape[1]");
    }

    @Test
    void overflowingShapesAreRejected() {
        assertThatThrownBy(() -> Precision.FP32.storageBytes(1L << 40, 1L << 30))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("overflows a long")
                .hasMessageContaining("1099511627776");
    }

    @Test
    void nonPositiveDimensionsAreRejectedByPosition() {
        assertThatThrownBy(() -> Precision.FP16.storageBytes(4, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("shape[1]")
                .hasMessageContaining("got 0");
        assertThatThrownBy(() -> Precision.FP16.storageBytes(-3))
                .hasMessageContaining("shape[0]")
                .hasMessageContaining("-3");
        assertThatThrownBy(() -> Precision.FP16.storageBytes()).hasMessageContaining("at least one dimension");
    }

    @ParameterizedTest
    @CsvSource({
        "fp8, FP8_E4M3",
        "E4M3, FP8_E4M3",
        "float8_e4m3fn, FP8_E4M3",
        "e5m2, FP8_E5M2",
        "nvfp4, NVFP4",
        "NVFP4, NVFP4",
        "bf16, BF16",
        "bfloat16, BF16",
        "half, FP16",
        "fp16, FP16",
        "fp32, FP32",
        "tf32, TF32",
        "int8, INT8",
        "int4, INT4",
        "mxfp4, MXFP4",
        "mxfp8, MXFP8_E4M3",
        "mxfp6-e2m3, MXFP6_E2M3",
        "nf4, NF4",
        "' MXINT8 ', MXINT8",
        "fp64, FP64"
    })
    void parsesTheNamesUsersType(String name, Precision expected) {
        assertThat(Precision.parse(name)).isEqualTo(expected);
    }

    @Test
    void unknownNamesListEveryKnownName() {
        assertThatThrownBy(() -> Precision.parse("fp7"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown precision 'fp7'")
                .hasMessageContaining("nvfp4")
                .hasMessageContaining("bf16")
                .hasMessageContaining("mxfp6e3m2");
        assertThatThrownBy(() -> Precision.parse(null)).hasMessageContaining("must not be null");
    }

    @Test
    void ambiguousNamesAskWhichOneWasMeant() {
        assertThatThrownBy(() -> Precision.parse("fp4"))
                .hasMessageContaining("ambiguous")
                .hasMessageContaining("nvfp4 or mxfp4");
    }

    @Test
    void everyAliasRoundTrips() {
        for (Precision p : Precision.values()) {
            for (String alias : p.aliases()) {
                assertThat(Precision.parse(alias)).isEqualTo(p);
            }
            assertThat(Precision.parse(p.name())).isEqualTo(p);
        }
    }

    @Test
    void tf32KeepsFp32RangeWithTenMantissaBits() {
        assertThat(Precision.TF32.maxFinite()).isCloseTo((2 - Math.pow(2, -10)) * Math.pow(2, 127), within(1e25));
    }

    @Test
    void blockCountRefusesRowsThatCannotHoldTheElements() {
        BlockScaling nvfp4 = Precision.NVFP4.blockScaling().orElseThrow();
        // 32 elements in rows of 16: two rows of one 16-element block each
        assertThat(nvfp4.blockCount(32, 16)).isEqualTo(2);
        assertThatThrownBy(() -> nvfp4.blockCount(32, 0)).hasMessage("rowLength must be > 0, got 0");
        assertThatThrownBy(() -> nvfp4.blockCount(0, 16)).hasMessage("elements must be > 0, got 0");
        assertThatThrownBy(() -> nvfp4.blockCount(33, 16))
                .hasMessage("elements must be whole rows of rowLength, got 33 and 16");
    }
}
