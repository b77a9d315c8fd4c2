package dev.roofline.cuda;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link DeviceBuffer#slice} over a fake device pointer: the views' addresses, bounds and lifetimes, no GPU needed. */
class DeviceBufferSliceTest {
    private final AtomicInteger frees = new AtomicInteger();
    private long base;

    private DeviceBuffer buffer(long bytes) {
        DeviceBuffer b = FakeDeviceBuffers.buffer(bytes, frees::incrementAndGet);
        base = b.pointer().address();
        return b;
    }

    @Test
    void aSlicePointsIntoTheBufferAndSpansItsRange() {
        DeviceBuffer b = buffer(1024);
        DeviceBuffer s = b.slice(256, 128);
        assertThat(s.pointer().address()).isEqualTo(base + 256);
        assertThat(s.pointer().byteSize()).isEqualTo(128);
        assertThat(s.byteSize()).isEqualTo(128);
        assertThat(s.isView()).isTrue();
        assertThat(b.isView()).isFalse();
    }

    @Test
    void aSliceOfASliceAddsTheOffsets() {
        DeviceBuffer s = buffer(1024).slice(256, 512).slice(64, 32);
        assertThat(s.pointer().address()).isEqualTo(base + 320);
        assertThat(s.byteSize()).isEqualTo(32);
    }

    @Test
    void theWholeBufferIsAValidSlice() {
        DeviceBuffer s = buffer(64).slice(0, 64);
        assertThat(s.pointer().address()).isEqualTo(base);
        assertThat(s.byteSize()).isEqualTo(64);
    }

    @Test
    void aSliceBeyondTheEndIsRefused() {
        DeviceBuffer b = buffer(1024);
        assertThatThrownBy(() -> b.slice(1000, 32))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a slice of 32 bytes at offset 1000 is not within a device buffer of 1024 bytes");
    }

    @Test
    void aSliceBeyondItsParentSliceIsRefusedEvenInsideTheBuffer() {
        DeviceBuffer s = buffer(1024).slice(0, 100);
        assertThatThrownBy(() -> s.slice(64, 64))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("device buffer of 100 bytes");
    }

    @Test
    void aNegativeOffsetOrAnEmptySliceIsRefused() {
        DeviceBuffer b = buffer(1024);
        assertThatThrownBy(() -> b.slice(-2, 16)).hasMessageContaining("at offset -2");
        assertThatThrownBy(() -> b.slice(16, 0)).hasMessageContaining("a slice of 0 bytes");
        assertThatThrownBy(() -> b.slice(Long.MAX_VALUE, 16)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void closingASliceFreesNothing() {
        DeviceBuffer b = buffer(1024);
        DeviceBuffer s = b.slice(0, 512);
        s.close();
        s.close();
        assertThat(frees).hasValue(0);
        assertThat(s.isClosed()).isFalse();
        assertThat(b.pointer().address()).isEqualTo(base);
    }

    @Test
    void aSliceIsClosedWithItsBuffer() {
        DeviceBuffer b = buffer(1024);
        DeviceBuffer s = b.slice(0, 512);
        b.close();
        assertThat(frees).hasValue(1);
        assertThat(s.isClosed()).isTrue();
        assertThatThrownBy(s::pointer)
                .isInstanceOf(ClosedResourceException.class)
                .hasMessage("buffer already closed");
        assertThatThrownBy(() -> s.copyFrom(new byte[4]))
                .isInstanceOf(ClosedResourceException.class)
                .hasMessage("buffer already closed");
    }

    @Test
    void aClosedBufferCannotBeSliced() {
        DeviceBuffer b = buffer(1024);
        b.close();
        assertThatThrownBy(() -> b.slice(0, 16))
                .isInstanceOf(ClosedResourceException.class)
                .hasMessage("buffer already closed");
    }

    @Test
    void copiesIntoASliceAreCheckedAgainstTheSlice() {
        DeviceBuffer s = buffer(1024).slice(512, 8);
        assertThatThrownBy(() -> s.copyFrom(new byte[16]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("host data of 16 bytes does not fit a device buffer of 8 bytes");
    }
}
