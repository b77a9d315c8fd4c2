package dev.roofline.cuda.bench;

import dev.roofline.core.roofline.Gemm;
import dev.roofline.core.roofline.Roofline;
import dev.roofline.cuda.Device;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.blas.CublasLt;
import dev.roofline.cuda.blas.Matmul;
import dev.roofline.cuda.blas.MatmulOptions;
import dev.roofline.cuda.blas.Operands;

import java.util.ArrayList;
import java.util.List;

/**
 * Times one cuBLASLt product on random inputs (rotated over enough sets to defeat the L2 when asked) and sets the
 * median beside the roofline's prediction. With {@code MatmulOptions.algorithms() > 1} the fastest heuristic
 * candidate is kept.
 */
public final class GemmBenchmark {
    private GemmBenchmark() {}

    public static Measurement measure(CublasLt lt, Device device, Stream stream, Gemm gemm, Roofline roofline,
                                      BenchmarkOptions o, MatmulOptions mo) {
        List<DeviceBuffer> owned = new ArrayList<>();
        try (Matmul mm = Matmul.plan(lt, gemm, device, mo)) {
            long[] need = mm.requiredBytes();
            int sets = o.inputSets(device.l2Bytes(), need[0] + need[1] + need[2]);
            DeviceBuffer w0 = track(owned, DeviceInputs.random(gemm.weights(), gemm.n() * gemm.k(), need[0], 1));
            DeviceBuffer x0 = track(owned, DeviceInputs.random(gemm.activations(), gemm.m() * gemm.k(), need[1], 2));
            DeviceBuffer one = track(owned, DeviceInputs.scale(1f));
            Operands[] ops = new Operands[sets];
            for (int s = 0; s < sets; s++) {
                DeviceBuffer w = s == 0 ? w0 : track(owned, copyOf(w0));
                DeviceBuffer x = s == 0 ? x0 : track(owned, copyOf(x0));
                DeviceBuffer y = track(owned, DeviceBuffer.allocate(need[2]));
                ops[s] = Operands.of(w, x, y).withScales(one, one, one);
            }
            if (mm.algorithmCount() > 1) {
                selectFastest(mm, stream, ops);
            }
            TimingStats t = Benchmark.time(stream, o, sets, i -> mm.run(ops[i], stream));
            return new Measurement(mm.label(), gemm, t, roofline.predict(gemm));
        } finally {
            owned.forEach(DeviceBuffer::close);
        }
    }

    private static void selectFastest(Matmul mm, Stream stream, Operands[] ops) {
        BenchmarkOptions quick = new BenchmarkOptions(3, 10, true, false, 1);
        int best = 0;
        double bestMicros = Double.MAX_VALUE;
        for (int a = 0; a < mm.algorithmCount(); a++) {
            mm.selectAlgorithm(a);
            double t = Benchmark.time(stream, quick, ops.length, i -> mm.run(ops[i], stream)).medianMicros();
            if (t < bestMicros) {
                bestMicros = t;
                best = a;
            }
        }
        mm.selectAlgorithm(best);
    }

    private static DeviceBuffer copyOf(DeviceBuffer b) {
        DeviceBuffer c = DeviceBuffer.allocate(b.byteSize());
        c.copyFrom(b);
        return c;
    }

    private static DeviceBuffer track(List<DeviceBuffer> owned, DeviceBuffer b) {
        owned.add(b);
        return b;
    }
}
