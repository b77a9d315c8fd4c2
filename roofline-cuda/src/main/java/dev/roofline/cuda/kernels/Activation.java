package dev.roofline.cuda.kernels;

import dev.roofline.core.precision.Precision;

/** Element type of the GEMV activations x and outputs y (2 bytes each); accumulation is always FP32. */
public enum Activation {
    F16("f16", Precision.FP16),
    BF16("bf16", Precision.BF16);

    private final String kernelName;
    private final Precision precision;

    Activation(String kernelName, Precision precision) {
        this.kernelName = kernelName;
        this.precision = precision;
    }

    String kernelName() {
        return kernelName;
    }

    public Precision precision() {
        return precision;
    }

    public int bytes() {
        return 2;
    }
}
