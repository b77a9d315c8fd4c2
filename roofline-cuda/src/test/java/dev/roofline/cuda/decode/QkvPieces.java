package dev.roofline.cuda.decode;

import dev.roofline.cuda.kernels.DeviceWeights;
import dev.roofline.cuda.kernels.GemvKernelsIT;
import dev.roofline.cuda.kernels.QuantizedWeights;
import dev.roofline.cuda.kernels.WeightFormat;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * q, k and v as a checkpoint hands them to the decoder: three {@link HostWeights} pieces of one quantization. Seeded
 * random weights with outliers ({@link GemvKernelsIT#weightsWithOutliers}), each piece at its own magnitude, are
 * quantized as one matrix by roofline-quant ({@link QuantizedWeights}) and cut at the pieces' first rows, so each
 * piece holds exactly its rows' bytes of the whole and NVFP4's pieces share the whole's global scale, which v's largest
 * weight sets: q's and k's bytes are encoded against a scale that is not the one they would get alone.
 *
 * @param whole  the pieces quantized as one matrix, q's rows first; {@link QuantizedWeights#values} is what the
 *               pieces' bytes decode to, computed by roofline-quant without the GPU code
 * @param pieces q, k and v in row order, each its element bytes and its device scales
 *               ({@link DeviceWeights#deviceScales}: MXFP4's end with the piece's own row maxima)
 */
record QkvPieces(QuantizedWeights whole, List<HostWeights> pieces) {
    static final List<String> NAMES = List.of("q", "k", "v");
    /** Rows of q, k and v: a query width over twice a key-value width, as grouped-query attention stacks them. */
    static final int[] ROWS = {256, 128, 128};
    /** Each piece's weights scaled by this, so a piece out of place or under another scale shows in its outputs. */
    private static final double[] MAGNITUDE = {1, 0.5, 2};

    QkvPieces {
        pieces = List.copyOf(pieces);
    }

    /** The pieces of {@code cols} columns in {@code format}, from weights drawn with {@code seed}. */
    static QkvPieces random(WeightFormat format, int cols, long seed) {
        Random rnd = new Random(seed);
        float[] w = new float[Arrays.stream(ROWS).sum() * cols];
        int at = 0;
        for (int p = 0; p < ROWS.length; p++) {
            for (float v : GemvKernelsIT.weightsWithOutliers(rnd, ROWS[p] * cols)) {
                w[at++] = (float) (MAGNITUDE[p] * v);
            }
        }
        QuantizedWeights whole = QuantizedWeights.quantize(format, w, w.length / cols, cols);
        List<HostWeights> pieces = new ArrayList<>(ROWS.length);
        int weightsAt = 0;
        int scalesAt = 0;
        for (int rows : ROWS) {
            int weightBytes = Math.toIntExact(format.weightBytes(rows, cols));
            int scaleBytes = Math.toIntExact(format.scaleBytes(rows, cols));
            byte[] scales = Arrays.copyOfRange(whole.scales(), scalesAt, scalesAt + scaleBytes);
            pieces.add(HostWeights.of(
                    format,
                    rows,
                    cols,
                    MemorySegment.ofArray(Arrays.copyOfRange(whole.weights(), weightsAt, weightsAt + weightBytes)),
                    MemorySegment.ofArray(DeviceWeights.deviceScales(format, rows, cols, scales)),
                    whole.globalScale()));
            weightsAt += weightBytes;
            scalesAt += scaleBytes;
        }
        return new QkvPieces(whole, pieces);
    }

    /** Output rows of the three pieces together. */
    int rows() {
        return whole.rows();
    }

    /** Piece {@code piece}'s outputs out of {@code y[m][rows()]}, as {@code [m][ROWS[piece]]}. */
    double[] outputsOf(int piece, double[] y, int m) {
        int first = Arrays.stream(ROWS, 0, piece).sum();
        int n = ROWS[piece];
        double[] out = new double[m * n];
        for (int r = 0; r < m; r++) {
            System.arraycopy(y, r * rows() + first, out, r * n, n);
        }
        return out;
    }
}
