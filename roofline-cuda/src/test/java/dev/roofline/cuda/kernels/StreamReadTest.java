package dev.roofline.cuda.kernels;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The stream read's words and grid, worked by hand. */
class StreamReadTest {

    @Test
    void aReadRoundsUpToWholeWords() {
        assertThat(StreamRead.words(64, 0, 1)).isEqualTo(1);
        assertThat(StreamRead.words(64, 16, 33)).isEqualTo(3); // bytes 16 .. 63
        assertThat(StreamRead.words(1L << 40, 0, StreamRead.MAX_BYTES)).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void aReadPastTheBufferIsRefusedWithWhatItNeeds() {
        // 33 bytes from 32 are 3 words, up to byte 80 of a 64-byte buffer
        assertThatThrownBy(() -> StreamRead.words(64, 32, 33))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("src holds 64 bytes")
                .hasMessageContaining("needs 80");
        assertThatThrownBy(() -> StreamRead.words(64, 80, 1)).hasMessageContaining("from offset 80");
    }

    @Test
    void badOffsetsAndSizesAreRefused() {
        assertThatThrownBy(() -> StreamRead.words(64, 8, 16)).hasMessageContaining("offset must be a multiple of 16");
        assertThatThrownBy(() -> StreamRead.words(64, -16, 16)).hasMessageContaining("got -16");
        assertThatThrownBy(() -> StreamRead.words(64, 0, 0)).hasMessageContaining("bytes must be in 1");
        assertThatThrownBy(() -> StreamRead.words(1L << 40, 0, StreamRead.MAX_BYTES + 1))
                .hasMessageContaining("got " + (StreamRead.MAX_BYTES + 1));
    }

    @Test
    void theGridIsOneBlockPerRoundUpToWhatTheSmsHold() {
        // a round of a block: 256 threads x 4 words = 1024 words
        assertThat(StreamRead.grid(1, 132, 8)).isEqualTo(1);
        assertThat(StreamRead.grid(1024, 132, 8)).isEqualTo(1);
        assertThat(StreamRead.grid(1025, 132, 8)).isEqualTo(2);
        // 16.8 MB (FP8 4096 x 4096): 1,048,576 words, 1024 rounds, under 132 x 8 = 1056
        assertThat(StreamRead.grid(1 << 20, 132, 8)).isEqualTo(1024);
        // 117 MB (FP8 28672 x 4096): 7168 rounds, held to 1056 blocks; on 48 SMs of 6 blocks (1536 threads), 288
        assertThat(StreamRead.grid(28672 * 4096 / 16, 132, 8)).isEqualTo(1056);
        assertThat(StreamRead.grid(28672 * 4096 / 16, 48, 6)).isEqualTo(288);
    }

    @Test
    void anSmIsGivenTheBlocksItsThreadsHoldUpToEight() {
        assertThat(StreamRead.blocksPerSm(2048)).isEqualTo(8); // compute capability 9.0, 10.0
        assertThat(StreamRead.blocksPerSm(1536)).isEqualTo(6); // 12.x
        assertThat(StreamRead.blocksPerSm(4096)).isEqualTo(8);
        assertThat(StreamRead.blocksPerSm(128)).isEqualTo(1);
    }
}
