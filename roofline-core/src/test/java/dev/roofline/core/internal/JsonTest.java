package dev.roofline.core.internal;

import dev.roofline.core.model.ConfigJson;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JsonTest {

    @Test
    void nestingUpTo512LevelsIsRead() {
        Object v = Json.parse("[".repeat(Json.MAX_DEPTH) + "]".repeat(Json.MAX_DEPTH));
        for (int i = 1; i < Json.MAX_DEPTH; i++) {
            v = ((List<?>) v).getFirst();
        }
        assertThat((List<?>) v).isEmpty();
    }

    @Test
    void nestingBeyond512LevelsIsRefusedWithItsPosition() {
        // the 513th '[' is column 513; 5,000 levels overflowed the stack before the bound
        assertThatThrownBy(() -> Json.parse("[".repeat(5000) + "]".repeat(5000)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("JSON line 1 column 513: nesting deeper than 512 objects and arrays");
        String objects = "{\"a\":".repeat(600) + "1" + "}".repeat(600);
        assertThatThrownBy(() -> ConfigJson.parse("x", objects))
                .hasMessageContaining(
                        "config.json is not valid JSON: JSON line 1 column 2561: nesting deeper than 512");
    }

    @Test
    void unicodeEscapeNeedsExactlyFourHexDigits() {
        assertThat(((Map<?, ?>) Json.parse("{\"s\": \"\\u0041\\u00e9\\uABCD\"}")).get("s"))
                .isEqualTo("Aé\uABCD");
        // Integer.parseInt("+041", 16) is 65: a sign must not pass for a digit
        assertThatThrownBy(() -> Json.parse("\"\\u+041\""))
                .hasMessage("JSON line 1 column 4: \\u must be followed by 4 hex digits, got '\\u+041'");
        assertThatThrownBy(() -> Json.parse("\"\\u-041\"")).hasMessageContaining("4 hex digits");
        assertThatThrownBy(() -> Json.parse("\"\\u 041\"")).hasMessageContaining("4 hex digits");
        assertThatThrownBy(() -> Json.parse("\"\\u04g1\"")).hasMessageContaining("got '\\u04g1'");
        // full-width and Arabic-Indic digits are digits to Character.digit, not to JSON
        assertThatThrownBy(() -> Json.parse("\"\\u０041\"")).hasMessageContaining("4 hex digits");
        assertThatThrownBy(() -> Json.parse("\"\\u٠041\"")).hasMessageContaining("4 hex digits");
        assertThatThrownBy(() -> Json.parse("\"\\u04")).hasMessageContaining("got '\\u04'");
    }

    @Test
    void quotedStringsReadBackAsWritten() {
        String s = "a \"b\" \\ c\n\t\u0001é";
        assertThat(Json.quote(s)).isEqualTo("\"a \\\"b\\\" \\\\ c\\n\\t\\u0001é\"");
        assertThat(Json.parse(Json.quote(s))).isEqualTo(s);
    }
}
