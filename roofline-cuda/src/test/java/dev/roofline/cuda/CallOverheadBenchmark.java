package dev.roofline.cuda;

import dev.roofline.bindings.cudart.cudart_h;
import dev.roofline.cuda.internal.Cudart;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Locale;

/**
 * What the checked layer adds to {@code cudaGetDevice} over the raw generated binding, and the idiomatic call that
 * allocates its out-parameter. Interleaved rounds, median ns/call. Run on the GPU machine beside
 * {@code src/bench/c/get_device_loop.c}. Not a unit test: started by {@code run-benchmarks.sh}.
 */
public final class CallOverheadBenchmark {
    private static final int CALLS = 5_000_000;
    private static final int ROUNDS = 11;
    private static int sink;

    private CallOverheadBenchmark() {}

    public static void main(String[] args) {
        Cuda.requireAvailable();
        MemorySegment out = Arena.global().allocate(ValueLayout.JAVA_INT);
        double[] raw = new double[ROUNDS];
        double[] checked = new double[ROUNDS];
        double[] idiomatic = new double[ROUNDS];
        for (int w = 0; w < 3; w++) { // warm-up: let C2 compile all three loops
            raw();
            checked(out);
            idiomatic();
        }
        for (int r = 0; r < ROUNDS; r++) {
            raw[r] = raw();
            checked[r] = checked(out);
            idiomatic[r] = idiomatic();
        }
        double rawNs = median(raw);
        double checkedNs = median(checked);
        System.out.printf(
                Locale.ROOT,
                "cudaGetDevice raw binding:      %.2f ns/call (median of %d x %d)%n",
                rawNs,
                ROUNDS,
                CALLS);
        System.out.printf(
                Locale.ROOT,
                "cudaGetDevice checked layer:    %.2f ns/call (%+.1f%% over raw)%n",
                checkedNs,
                (checkedNs / rawNs - 1) * 100);
        System.out.printf(
                Locale.ROOT,
                "cudaGetDevice with arena alloc: %.2f ns/call (%+.1f%% over raw)%n",
                median(idiomatic),
                (median(idiomatic) / rawNs - 1) * 100);
        System.out.println("sink " + sink);
    }

    private static double raw() {
        MemorySegment out = Arena.global().allocate(ValueLayout.JAVA_INT);
        int s = 0;
        long t0 = System.nanoTime();
        for (int i = 0; i < CALLS; i++) {
            s += cudart_h.cudaGetDevice(out);
        }
        long t1 = System.nanoTime();
        sink += s;
        return (t1 - t0) / (double) CALLS;
    }

    private static double checked(MemorySegment out) {
        int s = 0;
        long t0 = System.nanoTime();
        for (int i = 0; i < CALLS; i++) {
            s += Cudart.getDevice(out);
        }
        long t1 = System.nanoTime();
        sink += s;
        return (t1 - t0) / (double) CALLS;
    }

    private static double idiomatic() {
        int s = 0;
        int n = CALLS / 10;
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            s += Cudart.getDevice();
        }
        long t1 = System.nanoTime();
        sink += s;
        return (t1 - t0) / (double) n;
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
