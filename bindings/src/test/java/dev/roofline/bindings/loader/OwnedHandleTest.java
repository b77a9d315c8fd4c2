package dev.roofline.bindings.loader;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OwnedHandleTest {

    @Test
    void closeDestroysOnceAndIsIdempotent() {
        AtomicInteger destroyed = new AtomicInteger();
        OwnedHandle h = OwnedHandle.own(MemorySegment.ofAddress(0x1000), 64, "session", p -> {
            assertThat(p.address()).isEqualTo(0x1000);
            destroyed.incrementAndGet();
        });
        assertThat(h.get().byteSize()).isEqualTo(64);
        h.close();
        h.close();
        assertThat(destroyed).hasValue(1);
        assertThat(h.isClosed()).isTrue();
    }

    @Test
    void useAfterCloseIsAnIllegalStateNamingTheResource() {
        OwnedHandle h = OwnedHandle.own(MemorySegment.ofAddress(0x2000), 0, "NVML session", p -> {});
        h.close();
        assertThatThrownBy(h::get)
                .isExactlyInstanceOf(IllegalStateException.class)
                .hasMessage("NVML session already closed");
    }

    @Test
    void useAfterCloseThrowsTheOwnersException() {
        OwnedHandle h = OwnedHandle.own(
                MemorySegment.ofAddress(0x3000), 0, "stream", p -> {}, UnsupportedOperationException::new);
        h.close();
        assertThatThrownBy(h::get)
                .isExactlyInstanceOf(UnsupportedOperationException.class)
                .hasMessage("stream");
    }

    @Test
    void aHandleWithoutAnAddressStillDestroysOnce() {
        // NvmlMonitor's session owns no native object, only the release of its share of NVML
        AtomicInteger released = new AtomicInteger();
        OwnedHandle h = OwnedHandle.own(MemorySegment.NULL, 0, "NVML session", p -> released.incrementAndGet());
        assertThat(h.get().address()).isZero();
        h.close();
        h.close();
        assertThat(released).hasValue(1);
    }
}
