package dev.roofline.cuda.decode;

import java.io.IOException;

/**
 * A tensor of a checkpoint that the decoder cannot take as it is stored: missing, of the wrong shape for the
 * {@link DecoderShape}, or in a layout no GEMV kernel reads (block-wise FP8 scales, NF4, an unknown dtype). A data
 * error, like roofline-quant's {@code SafetensorsFormatException}: the message names the checkpoint, the tensor and
 * what was expected; {@link #tensor()} is the tensor's name.
 */
public final class UnloadableTensorException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String tensor;

    public UnloadableTensorException(String tensor, String message) {
        super(message);
        this.tensor = tensor;
    }

    /** The name of the tensor the decoder cannot take. */
    public String tensor() {
        return tensor;
    }
}
