package dev.roofline.cuda.decode;

import dev.roofline.cuda.decode.ReferenceDecoder.Config;
import dev.roofline.cuda.decode.ReferenceDecoder.Layer;
import dev.roofline.cuda.decode.ReferenceDecoder.Weights;

import java.util.List;

/**
 * The same decoder written a second way, with no cache and none of the code under test: every token of a sequence is
 * run through every layer from its embedding again (a prefill), token t attending causally over tokens 0..t at
 * positions equal to their index. Vectors are {@code double[]} per token and matrices are read row by row; RoPE is
 * the complex product {@code (x[i] + i·x[i + d/2]) · e^(i·t·invFreq[i])}.
 */
final class FullRecomputation {
    private FullRecomputation() {}

    /** The logits of the last of {@code embeddings} (each {@code hidden} long), recomputed from all of them. */
    static double[] lastLogits(Config c, Weights w, List<double[]> embeddings) {
        int tokens = embeddings.size();
        int hidden = c.hidden();
        int d = c.headDim();
        int groupSize = c.heads() / c.kvHeads();
        double[][] state = new double[tokens][];
        for (int t = 0; t < tokens; t++) {
            state[t] = embeddings.get(t).clone();
        }
        for (Layer layer : w.layers()) {
            // q[t][head], k[t][kvHead], v[t][kvHead]: each a headDim vector, q and k turned by position t
            double[][][] q = new double[tokens][c.heads()][];
            double[][][] k = new double[tokens][c.kvHeads()][];
            double[][][] v = new double[tokens][c.kvHeads()][];
            for (int t = 0; t < tokens; t++) {
                double[] n = norm(state[t], layer.inputNorm(), c.eps());
                for (int head = 0; head < c.heads(); head++) {
                    q[t][head] = turned(project(layer.wqkv(), head * d, d, n), t, c.invFreq());
                }
                for (int g = 0; g < c.kvHeads(); g++) {
                    k[t][g] = turned(project(layer.wqkv(), (c.heads() + g) * d, d, n), t, c.invFreq());
                    v[t][g] = project(layer.wqkv(), (c.heads() + c.kvHeads() + g) * d, d, n);
                }
            }
            for (int t = 0; t < tokens; t++) {
                double[] heads = new double[c.heads() * d];
                for (int head = 0; head < c.heads(); head++) {
                    int g = head / groupSize; // consecutive query heads share a KV head
                    double[] weight = new double[t + 1];
                    double total = 0;
                    for (int s = 0; s <= t; s++) {
                        weight[s] = Math.exp(dot(q[t][head], k[s][g]) / Math.sqrt(d));
                        total += weight[s];
                    }
                    for (int s = 0; s <= t; s++) {
                        for (int i = 0; i < d; i++) {
                            heads[head * d + i] += weight[s] / total * v[s][g][i];
                        }
                    }
                }
                add(state[t], project(layer.wo(), 0, hidden, heads));
                double[] n = norm(state[t], layer.postNorm(), c.eps());
                int inter = c.intermediate();
                double[] gate = project(layer.wgu(), 0, inter, n);
                double[] up = project(layer.wgu(), inter, inter, n);
                double[] act = new double[inter];
                for (int i = 0; i < inter; i++) {
                    act[i] = gate[i] * sigmoid(gate[i]) * up[i];
                }
                add(state[t], project(layer.wd(), 0, hidden, act));
            }
        }
        return project(w.lmHead(), 0, c.vocab(), norm(state[tokens - 1], w.finalNorm(), c.eps()));
    }

    /** Rows {@code [first, first + count)} of the row-major matrix {@code m}, each dotted with {@code x}. */
    private static double[] project(double[] m, int first, int count, double[] x) {
        double[] y = new double[count];
        for (int r = 0; r < count; r++) {
            for (int i = 0; i < x.length; i++) {
                y[r] += m[(first + r) * x.length + i] * x[i];
            }
        }
        return y;
    }

    private static double[] turned(double[] x, int position, double[] invFreq) {
        int half = invFreq.length;
        double[] out = new double[x.length];
        for (int i = 0; i < half; i++) {
            double angle = position * invFreq[i];
            // (re + i·im)(cos + i·sin) = (re·cos - im·sin) + i(re·sin + im·cos)
            double re = x[i];
            double im = x[i + half];
            out[i] = re * Math.cos(angle) - im * Math.sin(angle);
            out[i + half] = re * Math.sin(angle) + im * Math.cos(angle);
        }
        return out;
    }

    private static double[] norm(double[] x, double[] weight, double eps) {
        double rms = Math.sqrt(dot(x, x) / x.length + eps);
        double[] out = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            out[i] = weight[i] * x[i] / rms;
        }
        return out;
    }

    private static double sigmoid(double x) {
        return 1 / (1 + Math.exp(-x));
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    private static void add(double[] acc, double[] delta) {
        for (int i = 0; i < acc.length; i++) {
            acc[i] += delta[i];
        }
    }
}
