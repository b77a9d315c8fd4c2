package dev.roofline.cuda;

import dev.roofline.bindings.loader.OwnedHandle;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.cuda.blas.ElementCodec;
import dev.roofline.cuda.blas.Matmul;
import dev.roofline.cuda.blas.MatmulOptions;
import dev.roofline.cuda.internal.Handles;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.reflect.Constructor;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A null argument to roofline-cuda's public API is refused with a message naming the parameter, before any native
 * call: the objects here wrap fake handles (no GPU needed), which a native call would crash on.
 */
class NullArgumentsTest {

    private static OwnedHandle fake(String what) {
        return Handles.own(MemorySegment.ofAddress(0x1000), 64, what, p -> {});
    }

    private static <T> T make(Class<T> type, Class<?>[] parameters, Object... arguments) throws Exception {
        Constructor<T> c = type.getDeclaredConstructor(parameters);
        c.setAccessible(true);
        return c.newInstance(arguments);
    }

    private static Stream stream() throws Exception {
        return make(Stream.class, new Class<?>[] {OwnedHandle.class}, fake("stream"));
    }

    @Test
    void eventMethodsNameTheirParameter() throws Exception {
        Event event = make(Event.class, new Class<?>[] {OwnedHandle.class}, fake("event"));
        assertThatThrownBy(() -> event.record(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("stream must not be null");
        assertThatThrownBy(() -> event.elapsedMillisSince(null)).hasMessage("start must not be null");
    }

    @Test
    void streamAndGraphMethodsNameTheirParameter() throws Exception {
        Stream stream = stream();
        assertThatThrownBy(() -> stream.capture(null)).hasMessage("body must not be null");
        CudaGraph graph =
                make(CudaGraph.class, new Class<?>[] {OwnedHandle.class, OwnedHandle.class}, fake("g"), fake("e"));
        assertThatThrownBy(() -> graph.launch(null)).hasMessage("stream must not be null");
    }

    @Test
    void bufferCopiesNameTheirParameter() throws Exception {
        DeviceBuffer buffer =
                make(DeviceBuffer.class, new Class<?>[] {OwnedHandle.class, long.class}, fake("buffer"), 64L);
        assertThatThrownBy(() -> buffer.copyFrom((MemorySegment) null)).hasMessage("host must not be null");
        assertThatThrownBy(() -> buffer.copyTo(null)).hasMessage("host must not be null");
        assertThatThrownBy(() -> buffer.copyFrom((float[]) null)).hasMessage("host must not be null");
        assertThatThrownBy(() -> buffer.copyFrom((byte[]) null)).hasMessage("host must not be null");
        assertThatThrownBy(() -> buffer.copyFrom((DeviceBuffer) null)).hasMessage("source must not be null");
        Stream stream = stream();
        assertThatThrownBy(() -> buffer.copyFromAsync(null, 8, stream)).hasMessage("source must not be null");
        assertThatThrownBy(() -> buffer.copyFromAsync(buffer, 8, null)).hasMessage("stream must not be null");
    }

    @Test
    void matmulPlanningAndCodecsNameTheirParameter() {
        Gemm gemm = Gemm.of(16, 16, 16);
        assertThatThrownBy(() -> Matmul.plan(null, gemm, null, MatmulOptions.defaults()))
                .hasMessage("lt must not be null");
        assertThatThrownBy(() -> ElementCodec.bitsPerElement(null)).hasMessage("precision must not be null");
        assertThatThrownBy(() -> ElementCodec.encode(Precision.FP16, null)).hasMessage("values must not be null");
        assertThatThrownBy(() -> ElementCodec.decode(Precision.FP16, null)).hasMessage("bytes must not be null");
        assertThatThrownBy(() -> ElementCodec.random(null, 4, 1, 1f)).hasMessage("precision must not be null");
    }
}
