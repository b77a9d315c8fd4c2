package dev.roofline.cuda.decode;

import dev.roofline.cuda.CudaGraph;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.kernels.DeviceWeights;
import dev.roofline.cuda.kernels.QuantizedWeights;
import dev.roofline.cuda.kernels.WeightFormat;

import java.util.Arrays;
import java.util.List;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The GPU decoder against the CPU reference one token at a time from position 0, every sequence at the same position,
 * so each step's attention reads what the earlier steps appended; the last step is replayed from a CUDA graph, as the
 * benchmark runs it. The GPU keeps activations in FP16 (relative step 2^-11) through about 20 roundings per layer;
 * the bound is on ||logits - ref|| / ||ref||.
 */
final class StepByStep {
    private StepByStep() {}

    /**
     * Runs {@code steps} steps on both and checks every step's logits.
     *
     * @param inputs the FP16 bits of step t's input rows ({@code batch × hidden}), as the decoder's input takes them
     */
    static void compare(
            DenseDecoder decoder,
            ReferenceDecoder reference,
            Stream stream,
            int steps,
            IntFunction<short[]> inputs,
            double tolerance,
            String label) {
        compare(decoder, reference, stream, steps, inputs, tolerance, label, t -> {});
    }

    /**
     * {@link #compare}, with {@code afterStep} run on step t once both decoders have stepped and before the logits are
     * compared (e.g. to compare what a step chose, which explains a difference in the logits).
     */
    static void compare(
            DenseDecoder decoder,
            ReferenceDecoder reference,
            Stream stream,
            int steps,
            IntFunction<short[]> inputs,
            double tolerance,
            String label,
            IntConsumer afterStep) {
        int batch = decoder.batch();
        for (int t = 0; t < steps; t++) {
            short[] x = inputs.apply(t);
            int[] positions = new int[batch];
            Arrays.fill(positions, t);
            decoder.setInput(x);
            decoder.setPositions(positions);
            if (t < steps - 1) {
                decoder.step(stream);
            } else {
                try (CudaGraph graph = stream.capture(() -> decoder.step(stream))) {
                    graph.launch(stream);
                    stream.synchronize();
                }
            }
            stream.synchronize();
            double[] expected = reference.step(fp16(x), positions);
            afterStep.accept(t);
            double[] logits = fp16(decoder.logits().toShortArray());
            String at = label + " batch " + batch + " step " + t;
            assertThat(Arrays.stream(logits).allMatch(Double::isFinite))
                    .as("finite logits, " + at)
                    .isTrue();
            assertThat(relativeError(logits, expected))
                    .as("||logits - ref|| / ||ref||, " + at)
                    .isLessThan(tolerance);
        }
    }

    /** FP16 bits as the doubles they stand for. */
    static double[] fp16(short[] h) {
        double[] d = new double[h.length];
        for (int i = 0; i < h.length; i++) {
            d[i] = Float.float16ToFloat(h[i]);
        }
        return d;
    }

    static double relativeError(double[] y, double[] ref) {
        double num = 0;
        double den = 0;
        for (int i = 0; i < y.length; i++) {
            num += (y[i] - ref[i]) * (y[i] - ref[i]);
            den += ref[i] * ref[i];
        }
        return Math.sqrt(num / den);
    }

    /**
     * {@code v} rounded to FP16 on the device; {@code values} receives the doubles the uploaded halves stand for, as
     * the reference reads them.
     */
    static DeviceBuffer vector(double[] v, List<double[]> values) {
        short[] h = new short[v.length];
        for (int i = 0; i < v.length; i++) {
            h[i] = Float.floatToFloat16((float) v[i]);
        }
        DeviceBuffer b = DeviceBuffer.allocate(2L * h.length);
        b.copyFrom(h);
        values.add(fp16(h));
        return b;
    }

    /**
     * {@code w} ({@code rows × cols}) quantized to {@code f} on the device; {@code values} receives what its bytes
     * decode to, so the reference multiplies the values the GPU does.
     */
    static DeviceWeights matrix(WeightFormat f, double[] w, int rows, int cols, List<double[]> values) {
        float[] f32 = new float[w.length];
        for (int i = 0; i < w.length; i++) {
            f32[i] = (float) w[i];
        }
        QuantizedWeights q = QuantizedWeights.quantize(f, f32, rows, cols);
        double[] decoded = new double[q.values().length];
        for (int i = 0; i < decoded.length; i++) {
            decoded[i] = q.values()[i];
        }
        values.add(decoded);
        return q.upload();
    }
}
