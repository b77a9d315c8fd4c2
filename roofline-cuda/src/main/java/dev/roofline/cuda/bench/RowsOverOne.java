package dev.roofline.cuda.bench;

import dev.roofline.core.roofline.Gemm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A GEMV at M activation rows beside the same format (label) and shape at one row, each on the kernel roofline runs
 * there: how many times one row's time M rows took ({@code measured}), and how many times one row's time the roofline
 * gives M rows ({@code roofline}).
 * The weights stream once whatever M, so the roofline's ratio is only the activations and outputs the other rows add
 * (and their FLOPs, where those bound): the least that batched decode can take over one row's time.
 *
 * @param label    the kernel's label (its weight format)
 * @param n        output features
 * @param k        input features
 * @param m        activation rows, above one
 * @param measured median time at M rows ÷ median time at one row
 * @param roofline the roofline's time at M rows ÷ its time at one row, on the same ceilings
 */
public record RowsOverOne(String label, long n, long k, long m, double measured, double roofline) {

    /**
     * Every measurement of {@code kernels} above one row whose label, N and K were also measured at one row, in the
     * order measured, each against the first such one-row measurement; the others (no one-row partner, or not a GEMM)
     * are left out.
     */
    public static List<RowsOverOne> of(List<Measurement> kernels) {
        Map<Product, Measurement> oneRow = new HashMap<>();
        for (Measurement m : kernels) {
            if (m.operator() instanceof Gemm g && g.m() == 1) {
                oneRow.putIfAbsent(Product.of(m.label(), g), m);
            }
        }
        List<RowsOverOne> out = new ArrayList<>();
        for (Measurement m : kernels) {
            if (m.operator() instanceof Gemm g && g.m() > 1) {
                Measurement one = oneRow.get(Product.of(m.label(), g));
                if (one != null) {
                    out.add(new RowsOverOne(
                            m.label(),
                            g.n(),
                            g.k(),
                            g.m(),
                            m.time().medianSeconds() / one.time().medianSeconds(),
                            m.prediction().timeSeconds() / one.prediction().timeSeconds()));
                }
            }
        }
        return List.copyOf(out);
    }

    /** What a measurement at M rows and its one-row partner share: the label and the product's shape but for M. */
    private record Product(String label, long batch, long n, long k) {
        static Product of(String label, Gemm g) {
            return new Product(label, g.batch(), g.n(), g.k());
        }
    }
}
