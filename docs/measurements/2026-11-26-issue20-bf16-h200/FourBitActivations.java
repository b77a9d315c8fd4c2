// Times roofline's 4-bit GEMV kernels with FP16 and with BF16 activations on the same row-major weights (and FP16 on
// the tiled layout the library uploads for it), L2-cold over rotated weight sets, each a median of graphed launches.
// Compiled against the GPU bundle's jars and run there: java -cp <bundle jars>:. FourBitActivations
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.bench.Benchmark;
import dev.roofline.cuda.bench.BenchmarkOptions;
import dev.roofline.cuda.kernels.Activation;
import dev.roofline.cuda.kernels.DeviceWeights;
import dev.roofline.cuda.kernels.GemvKernels;
import dev.roofline.cuda.kernels.WeightFormat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

public class FourBitActivations {
    public static void main(String[] args) {
        int[][] shapes = {{8192, 8192}, {28672, 4096}, {4096, 14336}};
        BenchmarkOptions timing = BenchmarkOptions.defaults().withGraph(1).withRepetitions(50);
        System.out.println("| format | N x K | M | FP16, row-major us | BF16, row-major us | BF16 / FP16 | FP16, tiled us |");
        System.out.println("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
        try (GemvKernels gemv = GemvKernels.load();
                Stream stream = Stream.create()) {
            for (WeightFormat f : List.of(WeightFormat.NVFP4, WeightFormat.MXFP4, WeightFormat.INT4)) {
                for (int[] s : shapes) {
                    int n = s[0];
                    int k = s[1];
                    long bytes = f.weightBytes(n, k) + f.scaleBytes(n, k);
                    int sets = (int) Math.max(2, Math.ceilDiv(240L << 20, bytes));
                    byte[] w = new byte[(int) f.weightBytes(n, k)];
                    new java.util.Random(1).nextBytes(w);
                    byte[] sc = new byte[(int) f.scaleBytes(n, k)];
                    if (f == WeightFormat.NVFP4) Arrays.fill(sc, (byte) 0x38); // E4M3 1.0
                    else if (f == WeightFormat.MXFP4) Arrays.fill(sc, (byte) 127); // E8M0 1.0
                    else {
                        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(sc).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                        while (b.remaining() >= 4) b.putFloat(0.01f);
                    }
                    List<DeviceWeights> rowMajor = new ArrayList<>();
                    List<DeviceWeights> tiled = new ArrayList<>();
                    for (int i = 0; i < sets; i++) {
                        rowMajor.add(DeviceWeights.upload(f, n, k, w, sc, 1f));
                        tiled.add(DeviceWeights.uploadForGemv(f, n, k, w, sc, 1f));
                    }
                    DeviceBuffer x = DeviceBuffer.allocate(2L * 32 * k);
                    x.fill(0x2E);
                    DeviceBuffer[] ys = new DeviceBuffer[sets];
                    for (int i = 0; i < sets; i++) ys[i] = DeviceBuffer.allocate(2L * 32 * n);
                    for (int m : new int[] {1, 16}) {
                        double f16 = Benchmark.time(stream, timing, sets,
                                i -> gemv.gemv(rowMajor.get(i), x, ys[i], m, Activation.F16, stream)).medianSeconds();
                        double bf16 = Benchmark.time(stream, timing, sets,
                                i -> gemv.gemv(rowMajor.get(i), x, ys[i], m, Activation.BF16, stream)).medianSeconds();
                        double t16 = Benchmark.time(stream, timing, sets,
                                i -> gemv.gemv(tiled.get(i), x, ys[i], m, Activation.F16, stream)).medianSeconds();
                        System.out.printf(Locale.ROOT, "| %s | %dx%d | %d | %.2f | %.2f | %.3f | %.2f |%n",
                                f, n, k, m, f16 * 1e6, bf16 * 1e6, bf16 / f16, t16 * 1e6);
                    }
                    x.close();
                    for (DeviceBuffer y : ys) y.close();
                    rowMajor.forEach(DeviceWeights::close);
                    tiled.forEach(DeviceWeights::close);
                }
            }
        }
    }
}
