package dev.roofline.cuda;

import dev.roofline.bindings.loader.OwnedHandle;
import dev.roofline.cuda.internal.Handles;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClosedResourceTest {

    @Test
    void closeDestroysOnceAndIsIdempotent() {
        AtomicInteger destroyed = new AtomicInteger();
        OwnedHandle h = Handles.own(MemorySegment.ofAddress(0x1000), 64, "buffer", p -> {
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
    void useAfterCloseIsADomainError() {
        OwnedHandle h = Handles.own(MemorySegment.ofAddress(0x2000), 0, "buffer", p -> {});
        h.close();
        assertThatThrownBy(h::get).isInstanceOf(ClosedResourceException.class).hasMessage("buffer already closed");
    }
}
