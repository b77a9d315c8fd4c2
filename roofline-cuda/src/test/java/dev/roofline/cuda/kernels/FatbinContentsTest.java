package dev.roofline.cuda.kernels;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The fat binary's table of contents: a container built by hand, and the fatbin this jar ships. */
class FatbinContentsTest {

    /** A container of entries (kind, arch, payload bytes), each with a 64-byte header as nvcc writes for a cubin. */
    private static byte[] container(int[][] entries) {
        int total = 16;
        for (int[] e : entries) {
            total += 64 + e[2];
        }
        ByteBuffer b = ByteBuffer.allocate(total).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0xBA55ED50).putShort((short) 1).putShort((short) 16).putLong(total - 16);
        for (int[] e : entries) {
            int at = b.position();
            b.putShort((short) e[0]).putShort((short) 0x101).putInt(64).putLong(e[2]);
            b.putInt(at + 28, e[1]);
            b.position(at + 64 + e[2]);
        }
        return b.array();
    }

    @Test
    void readsEachEntrysKindAndArchitecture() {
        FatbinContents c = FatbinContents.read(container(new int[][] {{2, 90, 24}, {2, 121, 8}, {1, 90, 40}}));
        assertThat(c.entries().stream().map(Object::toString)).containsExactly("sm_90", "sm_121", "compute_90");
        assertThat(c.hasCubin(121)).isTrue();
        assertThat(c.hasCubin(100)).isFalse();
    }

    @Test
    void aTruncatedOrForeignFileIsRefusedWithWhereItBroke() {
        byte[] ok = container(new int[][] {{2, 90, 24}});
        byte[] cut = java.util.Arrays.copyOf(ok, ok.length - 8);
        assertThatThrownBy(() -> FatbinContents.read(cut))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the file has " + cut.length);
        assertThatThrownBy(() -> FatbinContents.read("\u007fELF and more bytes".getBytes()))
                .hasMessageContaining("not a CUDA fat binary");
        // a negative body length, and an entry whose payload would run past the end (or wrap a long)
        byte[] negative = ok.clone();
        ByteBuffer.wrap(negative).order(ByteOrder.LITTLE_ENDIAN).putLong(8, -1);
        assertThatThrownBy(() -> FatbinContents.read(negative)).hasMessageContaining("header says 16 + -1 bytes");
        byte[] huge = ok.clone();
        ByteBuffer.wrap(huge).order(ByteOrder.LITTLE_ENDIAN).putLong(16 + 8, Long.MAX_VALUE - 8);
        assertThatThrownBy(() -> FatbinContents.read(huge)).hasMessageContaining("entry at byte 16 claims 64 + ");
        byte[] shortHeader = ok.clone();
        ByteBuffer.wrap(shortHeader).order(ByteOrder.LITTLE_ENDIAN).putInt(16 + 4, 8);
        assertThatThrownBy(() -> FatbinContents.read(shortHeader)).hasMessageContaining("entry at byte 16 claims 8 + ");
        byte[] badKind = container(new int[][] {{7, 90, 24}});
        assertThatThrownBy(() -> FatbinContents.read(badKind)).hasMessageContaining("entry at byte 16 is of kind 7");
    }

    @Test
    void theShippedFatbinHasMachineCodeForHopperAndEveryBlackwellAndPtxForLaterGpus() {
        // scripts/build-kernels.sh: -gencode for sm_90a, sm_100a, sm_120a, sm_121a and compute_90 PTX
        assertThat(FatbinContents.embedded().entries().stream().map(Object::toString))
                .containsExactlyInAnyOrder("sm_90", "sm_100", "sm_120", "sm_121", "compute_90");
    }
}
