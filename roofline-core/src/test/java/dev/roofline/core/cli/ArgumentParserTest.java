package dev.roofline.core.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintStream;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ArgumentParserTest {
    static final Option<Long> COUNT = Option.of("--count", "N", "how many", "3", Converters.positiveLong());
    static final Option<String> TAG =
            Option.of("--tag", "T", "a tag", null, Converters.text()).repeated();
    static final Option<Boolean> QUIET = Option.flag("--quiet", "say less");

    static final Command COMMAND = new Command() {
        @Override
        public String name() {
            return "demo";
        }

        @Override
        public String summary() {
            return "a demo";
        }

        @Override
        public List<Option<?>> options() {
            return List.of(COUNT, TAG, QUIET);
        }

        @Override
        public List<String> operands() {
            return List.of("in");
        }

        @Override
        public void run(Arguments args, PrintStream out, PrintStream err) {}
    };

    static Arguments parse(String... args) {
        return ArgumentParser.parse(COMMAND, List.of(args));
    }

    @Test
    void absentOptionsTakeTheirDeclaredDefault() {
        Arguments a = parse("file");
        assertThat(a.get(COUNT)).isEqualTo(3L);
        assertThat(a.find(TAG)).isEmpty();
        assertThat(a.all(TAG)).isEmpty();
        assertThat(a.has(QUIET)).isFalse();
        assertThat(a.operands()).containsExactly("file");
    }

    @Test
    void valuesFollowTheOptionOrAnEqualsSign() {
        Arguments a = parse("--count", "7", "file", "--tag=x", "--tag", "y", "--quiet");
        assertThat(a.get(COUNT)).isEqualTo(7L);
        assertThat(a.all(TAG)).containsExactly("x", "y");
        assertThat(a.has(QUIET)).isTrue();
    }

    @Test
    void aRefusedValueNamesTheOption() {
        assertThatThrownBy(() -> parse("--count", "0"))
                .isInstanceOf(UsageException.class)
                .hasMessage("--count must be a positive integer, got '0'");
    }

    @Test
    void misuseIsAUsageError() {
        assertThatThrownBy(() -> parse("--cuont", "2"))
                .isInstanceOf(UsageException.class)
                .hasMessage("unknown option --cuont");
        assertThatThrownBy(() -> parse("--count"))
                .isInstanceOf(UsageException.class)
                .hasMessage("--count needs a value (N)");
        assertThatThrownBy(() -> parse("--quiet=1"))
                .isInstanceOf(UsageException.class)
                .hasMessage("--quiet takes no value, got '1'");
        assertThatThrownBy(() -> parse("a", "b"))
                .isInstanceOf(UsageException.class)
                .hasMessage("unexpected argument 'b'");
    }

    @Test
    void missingOperandsAreReportedByTheCommandsMessage() {
        assertThatThrownBy(() -> parse().operands(1, "demo needs <in>"))
                .isInstanceOf(UsageException.class)
                .hasMessage("demo needs <in>");
    }

    @Test
    void usageListsOptionsWithValueNamesAndDefaults() {
        assertThat(Usage.of(COMMAND)).isEqualTo("""
                usage: roofline demo <in> [options]
                a demo
                  --count N             how many (default 3)
                  --tag T (repeatable)  a tag
                  --quiet               say less
                  --help                print this text
                  --debug               print the stack trace of a failure (or set ROOFLINE_DEBUG=1)
                """);
    }
}
