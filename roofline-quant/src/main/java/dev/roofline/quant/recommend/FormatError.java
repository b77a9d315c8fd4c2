package dev.roofline.quant.recommend;

import dev.roofline.core.precision.Precision;
import dev.roofline.quant.block.ErrorMetrics;

/**
 * One candidate format measured on one weight matrix.
 *
 * @param format     the weight format
 * @param error      quantize-then-dequantize error against the original weights
 * @param timeMicros roofline-predicted time of the layer's GEMM with weights as the quantizer stored them (the
 *                   quantized tensor's precision: INT4 with groups of 128 is priced as {@link Precision#INT4_G128})
 */
public record FormatError(Precision format, ErrorMetrics error, double timeMicros) {}
