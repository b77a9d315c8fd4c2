package dev.roofline.quant.safetensors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SafetensorsFileTest {
    @TempDir
    Path dir;

    // header order b, a; file order a (bytes 0-8), b (bytes 8-12)
    private static final String TWO_TENSORS = """
            {"__metadata__":{"format":"pt"},\
            "b":{"dtype":"BF16","shape":[2],"data_offsets":[8,12]},\
            "a":{"dtype":"F32","shape":[1,2],"data_offsets":[0,8]}}""";

    private SafetensorsFile twoTensors() throws IOException {
        // BF16 3.0 = 0x4040, -0.5 = 0xBF00 (the top halves of the FP32 codes 0x40400000, 0xBF000000)
        byte[] data = HandBuilt.concat(HandBuilt.f32(1.5f, -2f), HandBuilt.u16(0x4040, 0xBF00));
        return SafetensorsFile.open(HandBuilt.write(dir, "two.safetensors", HandBuilt.file(TWO_TENSORS, data)));
    }

    @Test
    void handBuiltFileListsTensorsInFileOrderWithMetadata() throws IOException {
        try (SafetensorsFile file = twoTensors()) {
            assertThat(file.metadata()).isEqualTo(Map.of("format", "pt"));
            assertThat(file.tensors())
                    .containsExactly(
                            new TensorInfo("a", Dtype.F32, List.of(1L, 2L), 0, 8),
                            new TensorInfo("b", Dtype.BF16, List.of(2L), 8, 12));
        }
    }

    @Test
    void handBuiltFileDecodesF32AndBf16() throws IOException {
        try (SafetensorsFile file = twoTensors()) {
            assertThat(file.floats("a")).containsExactly(1.5f, -2f);
            assertThat(file.floats("b")).containsExactly(3f, -0.5f);
        }
    }

    @Test
    void f16AndFp8DecodeToTheirIeeeAndOcpValues() throws IOException {
        String header = """
                {"h":{"dtype":"F16","shape":[3],"data_offsets":[0,6]},\
                "e4":{"dtype":"F8_E4M3","shape":[3],"data_offsets":[6,9]},\
                "e5":{"dtype":"F8_E5M2","shape":[3],"data_offsets":[9,12]},\
                "d":{"dtype":"F64","shape":[],"data_offsets":[12,20]}}""";
        // F16 0x3C00 = 1, 0xC000 = -2, 0x7BFF = 65504; E4M3 0x7E = 448, 0x38 = 1, 0x01 = 2^-9;
        // E5M2 0x3C = 1, 0x7B = 57344, 0x7C = +inf; F64 0.1 rounds to the float 0.1f
        byte[] data = HandBuilt.concat(
                HandBuilt.u16(0x3C00, 0xC000, 0x7BFF),
                new byte[] {0x7E, 0x38, 0x01, 0x3C, 0x7B, 0x7C},
                ByteBuffer.allocate(8)
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .putDouble(0.1)
                        .array());
        try (SafetensorsFile file =
                SafetensorsFile.open(HandBuilt.write(dir, "f.safetensors", HandBuilt.file(header, data)))) {
            assertThat(file.floats("h")).containsExactly(1f, -2f, 65504f);
            assertThat(file.floats("e4")).containsExactly(448f, 1f, 0x1p-9f);
            assertThat(file.floats("e5")).containsExactly(1f, 57344f, Float.POSITIVE_INFINITY);
            assertThat(file.floats("d")).containsExactly(0.1f);
        }
    }

    @Test
    void scalarAndEmptyTensorsAreValid() throws IOException {
        String header = """
                {"s":{"dtype":"I32","shape":[],"data_offsets":[0,4]},\
                "z":{"dtype":"F32","shape":[4,0],"data_offsets":[4,4]}}""";
        byte[] data = {7, 0, 0, 0};
        try (SafetensorsFile file =
                SafetensorsFile.open(HandBuilt.write(dir, "s.safetensors", HandBuilt.file(header, data)))) {
            assertThat(file.tensor("s").elementCount()).isEqualTo(1);
            assertThat(file.buffer("s").getInt()).isEqualTo(7);
            assertThat(file.floats("z")).isEmpty();
        }
    }

    @Test
    void headerPaddedWithSpacesAndGapsBetweenTensorsAreAccepted() throws IOException {
        String header = "{\"x\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[2,4]}}   ";
        try (SafetensorsFile file = SafetensorsFile.open(
                HandBuilt.write(dir, "g.safetensors", HandBuilt.file(header, new byte[] {9, 9, 5, 6})))) {
            assertThat(file.segment("x").toArray(ValueLayout.JAVA_BYTE)).containsExactly(5, 6);
        }
    }

    @Test
    void bufferIsReadOnlyLittleEndianView() throws IOException {
        try (SafetensorsFile file = twoTensors()) {
            ByteBuffer a = file.buffer("a");
            assertThat(a.isReadOnly()).isTrue();
            assertThat(a.order()).isEqualTo(ByteOrder.LITTLE_ENDIAN);
            assertThat(a.getFloat(4)).isEqualTo(-2f);
            assertThat(file.segment("a").isReadOnly()).isTrue();
        }
    }

    @Test
    void readFloatsReadsAChunk() throws IOException {
        try (SafetensorsFile file = twoTensors()) {
            float[] dst = new float[3];
            file.readFloats(file.tensor("a"), 1, dst, 2, 1);
            assertThat(dst).containsExactly(0f, 0f, -2f);
            assertThatThrownBy(() -> file.readFloats(file.tensor("a"), 1, dst, 0, 2))
                    .isInstanceOf(IndexOutOfBoundsException.class)
                    .hasMessageContaining("elements [1, 1 + 2)");
        }
    }

    @Test
    void integerTensorsHaveNoFloatView() throws IOException {
        try (SafetensorsFile file = SafetensorsFile.open(HandBuilt.write(
                dir,
                "i.safetensors",
                HandBuilt.file("{\"i\":{\"dtype\":\"I8\",\"shape\":[1],\"data_offsets\":[0,1]}}", new byte[] {1})))) {
            assertThatThrownBy(() -> file.floats("i"))
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("'i'")
                    .hasMessageContaining("I8");
        }
    }

    @Test
    void unknownTensorNameIsReported() throws IOException {
        try (SafetensorsFile file = twoTensors()) {
            assertThat(file.find("c")).isEmpty();
            assertThatThrownBy(() -> file.tensor("c"))
                    .isInstanceOf(NoSuchElementException.class)
                    .hasMessageContaining("'c'")
                    .hasMessageContaining("2 tensors");
        }
    }

    @Test
    void tensorOfAnotherFileIsRejected() throws IOException {
        try (SafetensorsFile file = twoTensors()) {
            TensorInfo foreign = new TensorInfo("a", Dtype.U8, List.of(8L), 0, 8);
            assertThatThrownBy(() -> file.segment(foreign))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("not a tensor of");
        }
    }

    @Test
    void closeIsIdempotentAndLaterAccessSaysClosed() throws IOException {
        SafetensorsFile file = twoTensors();
        MemorySegment before = file.segment("a");
        file.close();
        file.close();
        assertThatThrownBy(() -> file.segment("a"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already closed");
        assertThatThrownBy(() -> before.get(ValueLayout.JAVA_BYTE, 0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void headerLimitMustBePositive() {
        assertThatThrownBy(() -> SafetensorsFile.open(dir.resolve("x"), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxHeaderBytes")
                .hasMessageContaining("0");
    }

    @Test
    void tensorInfoChecksItsByteRange() {
        assertThatThrownBy(() -> new TensorInfo("t", Dtype.F32, List.of(3L), 0, 8))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs 12 bytes");
        assertThatThrownBy(() -> new TensorInfo("t", Dtype.F32, List.of(), 8, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[8, 4]");
    }
}
