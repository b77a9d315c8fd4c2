package dev.roofline.core.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConvertersTest {

    @Test
    void positiveIntsReadACommaSeparatedList() {
        assertThat(Converters.positiveInts().convert("--batch", "1,8, 32")).containsExactly(1, 8, 32);
        assertThat(Converters.positiveInts().convert("--batch", "2147483647")).containsExactly(Integer.MAX_VALUE);
    }

    @Test
    void positiveIntsNameTheOptionForEveryBadElement() {
        assertThatThrownBy(() -> Converters.positiveInts().convert("--batch", "1,0"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--batch must be a positive integer, got '0'");
        assertThatThrownBy(() -> Converters.positiveInts().convert("--context", "1,"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--context must be a positive integer, got ''");
        // beyond an int: a usage error naming the option, not an ArithmeticException from toIntExact
        assertThatThrownBy(() -> Converters.positiveInts().convert("--context", "2147483648"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--context must be at most 2147483647, got '2147483648'");
    }

    @Test
    void bytesTakeBinarySuffixes() {
        assertThat(Converters.bytes().convert("--max-bytes", "8")).isEqualTo(8L);
        assertThat(Converters.bytes().convert("--max-bytes", "64k")).isEqualTo(65_536L);
        assertThat(Converters.bytes().convert("--max-bytes", " 1M")).isEqualTo(1_048_576L);
        assertThat(Converters.bytes().convert("--max-bytes", "1G")).isEqualTo(1_073_741_824L);
    }

    @Test
    void bytesRefuseWhatIsNoSize() {
        for (String bad : new String[] {"0", "-1K", "1T", "G", "", "1.5G", "9223372036854775807K"}) {
            assertThatThrownBy(() -> Converters.bytes().convert("--min-bytes", bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(
                            "--min-bytes must be a positive size in bytes such as 8, 64K, 1M or 1G, got '" + bad + "'");
        }
    }
}
