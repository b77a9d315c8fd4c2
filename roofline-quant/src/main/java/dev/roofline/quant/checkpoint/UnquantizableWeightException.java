package dev.roofline.quant.checkpoint;

import java.io.IOException;

/**
 * A weight of the input checkpoint that cannot be quantized (a NaN or an infinity in it): a data error, like
 * {@link dev.roofline.quant.safetensors.SafetensorsFormatException}. The message names the file, the tensor and the
 * bad element; {@link #tensor()} is the tensor's name.
 */
public final class UnquantizableWeightException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String tensor;

    public UnquantizableWeightException(String tensor, String message, Throwable cause) {
        super(message, cause);
        this.tensor = tensor;
    }

    /** The name of the tensor that cannot be quantized. */
    public String tensor() {
        return tensor;
    }
}
