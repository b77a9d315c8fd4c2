package dev.roofline.bindings.loader;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StatusNamesTest {

    /** A stand-in for a generated header class: status constants, an alias, and methods that are not statuses. */
    public static final class Header {
        public static int LIB_OK() {
            return 0;
        }

        public static int LIB_ERROR_A() {
            return 3;
        }

        public static int LIB_ERROR_ALIAS() {
            return 3;
        }

        public static int LIB_LIMIT() {
            return 7;
        }

        public static int LIB_ERROR_TAKES(int x) {
            return x;
        }
    }

    private static final StatusNames NAMES =
            StatusNames.of(Header.class, n -> n.equals("LIB_OK") || n.startsWith("LIB_ERROR_"), "libStatus ");

    @Test
    void namesComeFromTheMatchingConstants() {
        assertThat(NAMES.name(0)).isEqualTo("LIB_OK");
    }

    @Test
    void aliasesResolveToTheSmallerName() {
        // "LIB_ERROR_A" < "LIB_ERROR_ALIAS" (a prefix sorts first)
        assertThat(NAMES.name(3)).isEqualTo("LIB_ERROR_A");
    }

    @Test
    void codesWithoutAConstantNameTheNumber() {
        assertThat(NAMES.name(7)).isEqualTo("libStatus 7");
        assertThat(NAMES.name(42)).isEqualTo("libStatus 42");
    }
}
