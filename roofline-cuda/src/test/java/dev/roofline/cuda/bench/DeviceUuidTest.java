package dev.roofline.cuda.bench;

import dev.roofline.core.hardware.ComputeCapability;
import dev.roofline.cuda.Device;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The UUID the harness hands a {@link PowerMeter}: cudaDeviceProp.uuid in NVML's "GPU-..." form. */
class DeviceUuidTest {
    private static final ComputeCapability HOPPER = new ComputeCapability(9, 0);

    @Test
    void bytesAreWrittenInOrderAsLowercaseHexGrouped8_4_4_4_12() {
        byte[] b = new byte[16];
        for (int i = 0; i < 16; i++) {
            b[i] = (byte) (0xA0 + i); // a0 a1 ... af: every byte above 0x7f, so a sign error would show
        }
        assertThat(Device.nvmlUuid(b)).isEqualTo("GPU-a0a1a2a3-a4a5-a6a7-a8a9-aaabacadaeaf");
    }

    @Test
    void randomBytesMatchJavaUtilUuidsTextForm() {
        SplittableRandom r = new SplittableRandom(System.nanoTime());
        for (int n = 0; n < 100; n++) {
            byte[] b = new byte[16];
            r.nextBytes(b);
            ByteBuffer bb = ByteBuffer.wrap(b); // big-endian: byte 0 is the most significant, as UUID.toString() prints
            UUID reference = new UUID(bb.getLong(), bb.getLong());
            assertThat(Device.nvmlUuid(b)).isEqualTo("GPU-" + reference);
        }
    }

    @Test
    void anythingButSixteenBytesIsRefused() {
        assertThatThrownBy(() -> Device.nvmlUuid(new byte[15]))
                .hasMessageContaining("16 bytes")
                .hasMessageContaining("15");
        assertThatThrownBy(() -> Device.nvmlUuid(null)).hasMessageContaining("null");
    }

    @Test
    void aDeviceRefusesAUuidNotInNvmlForm() {
        assertThatThrownBy(() -> device("GPU-A0A1A2A3-A4A5-A6A7-A8A9-AAABACADAEAF"))
                .hasMessageContaining("lowercase hex");
        assertThatThrownBy(() -> device("a0a1a2a3-a4a5-a6a7-a8a9-aaabacadaeaf")).hasMessageContaining("GPU-");
        assertThat(device("GPU-a0a1a2a3-a4a5-a6a7-a8a9-aaabacadaeaf").uuid())
                .isEqualTo("GPU-a0a1a2a3-a4a5-a6a7-a8a9-aaabacadaeaf");
    }

    @Test
    void aHandBuiltDeviceHasTheNilUuid() {
        Device d = new Device(0, "NVIDIA H200", HOPPER, 132, 141L << 30, 60L << 20, 1_980_000, 3_201_000, 6144);
        assertThat(d.uuid()).isEqualTo(Device.NIL_UUID).isEqualTo("GPU-" + new UUID(0, 0));
    }

    private static Device device(String uuid) {
        return new Device(0, "NVIDIA H200", HOPPER, 132, 141L << 30, 60L << 20, 1_980_000, 3_201_000, 6144, uuid);
    }
}
