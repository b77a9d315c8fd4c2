package dev.roofline.core.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The one JSON reader of roofline-core ({@code config.json}, calibration files): strict RFC 8259, objects become
 * {@code Map} (in the text's key order), arrays {@code List}, numbers
 * {@code Long} (integers) or {@code Double}, plus {@code String}, {@code Boolean} and {@code null}. Errors name the
 * line and column; duplicate keys, trailing content, {@code \\u} escapes other than four hex digits and nesting deeper
 * than {@link #MAX_DEPTH} are refused.
 */
public final class Json {
    /**
     * Most objects and arrays open at once: far beyond any {@code config.json} (which nests 3 or 4 deep), and well
     * within what this recursive reader can descend on a default thread stack.
     */
    public static final int MAX_DEPTH = 512;

    private final String text;
    private int pos;
    private int depth;

    private Json(String text) {
        this.text = text;
    }

    /**
     * The value of {@code text}.
     *
     * @throws IllegalArgumentException naming the line and column of the first error
     */
    public static Object parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("JSON text must not be null");
        }
        Json j = new Json(text);
        j.skipSpace();
        Object v = j.value();
        j.skipSpace();
        if (j.pos != text.length()) {
            throw j.error("unexpected '" + text.charAt(j.pos) + "' after the JSON value");
        }
        return v;
    }

    /** {@code s} as a JSON string literal: quoted, with quotes, backslashes and control characters escaped. */
    public static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    private Object value() {
        if (pos >= text.length()) {
            throw error("unexpected end of input, expected a value");
        }
        char c = text.charAt(pos);
        return switch (c) {
            case '{' -> nested(this::object);
            case '[' -> nested(this::array);
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    yield number();
                }
                throw error("unexpected '" + c + "', expected a value");
            }
        };
    }

    private Object nested(Supplier<Object> container) {
        if (depth == MAX_DEPTH) {
            throw error("nesting deeper than " + MAX_DEPTH + " objects and arrays");
        }
        depth++;
        Object v = container.get();
        depth--;
        return v;
    }

    private Map<String, Object> object() {
        pos++;
        Map<String, Object> m = new LinkedHashMap<>();
        skipSpace();
        if (peek() == '}') {
            pos++;
            return m;
        }
        while (true) {
            skipSpace();
            if (peek() != '"') {
                throw error("expected a string key");
            }
            int keyAt = pos;
            String key = string();
            skipSpace();
            expect(':');
            skipSpace();
            Object v = value();
            if (m.containsKey(key)) {
                pos = keyAt;
                throw error("duplicate key \"" + key + "\"");
            }
            m.put(key, v);
            skipSpace();
            char c = next("',' or '}'");
            if (c == '}') {
                return m;
            }
            if (c != ',') {
                pos--;
                throw error("expected ',' or '}', got '" + c + "'");
            }
        }
    }

    private List<Object> array() {
        pos++;
        List<Object> l = new ArrayList<>();
        skipSpace();
        if (peek() == ']') {
            pos++;
            return l;
        }
        while (true) {
            skipSpace();
            l.add(value());
            skipSpace();
            char c = next("',' or ']'");
            if (c == ']') {
                return l;
            }
            if (c != ',') {
                pos--;
                throw error("expected ',' or ']', got '" + c + "'");
            }
        }
    }

    private String string() {
        pos++;
        StringBuilder sb = new StringBuilder();
        while (true) {
            char c = next("closing '\"'");
            if (c == '"') {
                return sb.toString();
            }
            if (c < 0x20) {
                pos--;
                throw error("control character in string");
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            char e = next("escape");
            switch (e) {
                case '"', '\\', '/' -> sb.append(e);
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    int code = 0;
                    for (int i = 0; i < 4; i++) {
                        int digit = Character.digit(peek(), 16);
                        // Character.digit also takes non-ASCII digits; JSON allows 0-9, a-f and A-F only
                        if (digit < 0 || peek() > 'f') {
                            throw error("\\u must be followed by 4 hex digits, got '"
                                    + text.substring(pos - i - 2, Math.min(text.length(), pos - i + 4)) + "'");
                        }
                        code = code * 16 + digit;
                        pos++;
                    }
                    sb.append((char) code);
                }
                default -> {
                    pos--;
                    throw error("bad escape '\\" + e + "'");
                }
            }
        }
    }

    private Object number() {
        int start = pos;
        if (peek() == '-') {
            pos++;
        }
        if (peek() == '0') {
            pos++;
        } else if (!digits()) {
            throw error("expected a digit");
        }
        boolean integer = true;
        if (peek() == '.') {
            pos++;
            integer = false;
            if (!digits()) {
                throw error("expected a digit after '.'");
            }
        }
        if (peek() == 'e' || peek() == 'E') {
            pos++;
            integer = false;
            if (peek() == '+' || peek() == '-') {
                pos++;
            }
            if (!digits()) {
                throw error("expected a digit in the exponent");
            }
        }
        String s = text.substring(start, pos);
        if (integer) {
            try {
                return Long.parseLong(s);
            } catch (NumberFormatException e) {
                return Double.parseDouble(s);
            }
        }
        return Double.parseDouble(s);
    }

    private boolean digits() {
        int start = pos;
        while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
            pos++;
        }
        return pos > start;
    }

    private Object literal(String word, Object v) {
        if (!text.startsWith(word, pos)) {
            throw error("unexpected token, expected " + word);
        }
        pos += word.length();
        return v;
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private char next(String expected) {
        if (pos >= text.length()) {
            throw error("unexpected end of input, expected " + expected);
        }
        return text.charAt(pos++);
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        pos++;
    }

    private void skipSpace() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            pos++;
        }
    }

    private IllegalArgumentException error(String what) {
        int line = 1;
        int col = 1;
        for (int i = 0; i < Math.min(pos, text.length()); i++) {
            if (text.charAt(i) == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        return new IllegalArgumentException("JSON line " + line + " column " + col + ": " + what);
    }
}
