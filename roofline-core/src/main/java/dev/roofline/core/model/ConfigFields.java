package dev.roofline.core.model;

import java.util.Map;

/** Typed reads of a parsed {@code config.json}'s fields, each refusal naming the key (for {@link ConfigJson}). */
final class ConfigFields {
    private ConfigFields() {}

    /** Refuses {@code key: true}: a bias this reader would not count. */
    static void refuseTrue(Map<String, Object> c, String key) {
        if (bool(c, key, false)) {
            throw new IllegalArgumentException(
                    "config.json \"" + key + "\": true is not supported (its biases would not be counted)");
        }
    }

    static int integer(Map<String, Object> c, String key) {
        Object v = c.get(key);
        if (v == null) {
            throw new IllegalArgumentException(
                    "config.json needs \"" + key + "\"" + (c.containsKey(key) ? " (it is null)" : ""));
        }
        if (!(v instanceof Long l) || l <= 0 || l > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("config.json \"" + key + "\" must be a positive integer, got " + v);
        }
        return l.intValue();
    }

    static int nonNegative(Map<String, Object> c, String key) {
        Object v = c.get(key);
        if (!(v instanceof Long l) || l < 0 || l > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("config.json \"" + key + "\" must be an integer >= 0, got " + v);
        }
        return l.intValue();
    }

    static boolean bool(Map<String, Object> c, String key, boolean absent) {
        Object v = c.get(key);
        if (v == null) {
            return absent;
        }
        if (!(v instanceof Boolean b)) {
            throw new IllegalArgumentException("config.json \"" + key + "\" must be true or false, got " + v);
        }
        return b;
    }
}
