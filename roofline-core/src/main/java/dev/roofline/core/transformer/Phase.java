package dev.roofline.core.transformer;

/** Prefill processes the whole prompt at once; decode produces one token per sequence, reading the KV cache. */
public enum Phase {
    PREFILL,
    DECODE
}
