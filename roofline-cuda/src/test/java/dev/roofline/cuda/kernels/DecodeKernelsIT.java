package dev.roofline.cuda.kernels;

import dev.roofline.core.format.MiniFloat;
import dev.roofline.core.format.Overflow;
import dev.roofline.core.precision.Precision;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.RequiresGpu;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.decode.DecodeReference;
import dev.roofline.cuda.decode.RopeFrequencies;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * The decode kernels against {@link DecodeReference} on the same FP16 inputs. The kernels compute in FP32 and round
 * their outputs to FP16 (relative step 2^-11), so the bounds are a few output steps: on ||y - ref|| / ||ref|| and on
 * the worst element relative to the largest reference value.
 */
@RequiresGpu
class DecodeKernelsIT {
    private static DecodeKernels kernels;
    private static Stream stream;

    @BeforeAll
    static void open() {
        kernels = DecodeKernels.load();
        stream = Stream.create();
    }

    @AfterAll
    static void close() {
        stream.close();
        kernels.close();
    }

    @Test
    void addRmsNormMatchesTheReference() {
        int rows = 3;
        int hidden = 4096;
        SplittableRandom rnd = new SplittableRandom(1);
        short[] residual = Halves.gaussian(rnd, rows * hidden, 1);
        short[] delta = Halves.gaussian(rnd, rows * hidden, 0.5);
        short[] weight = Halves.gaussian(rnd, hidden, 1);
        try (DeviceBuffer r = Halves.upload(residual);
                DeviceBuffer d = Halves.upload(delta);
                DeviceBuffer w = Halves.upload(weight);
                DeviceBuffer out = DeviceBuffer.allocate(2L * rows * hidden)) {
            kernels.addRmsNorm(r, d, w, out, rows, hidden, 1e-5f, stream);
            stream.synchronize();
            // the reference adds in double and rounds the sum to FP16, as the residual stream stores it
            double[] sum = new double[rows * hidden];
            short[] expectedResidual = new short[rows * hidden];
            for (int i = 0; i < sum.length; i++) {
                expectedResidual[i] = Float.floatToFloat16(
                        (float) ((double) Float.float16ToFloat(residual[i]) + Float.float16ToFloat(delta[i])));
                sum[i] = Float.float16ToFloat(expectedResidual[i]);
            }
            assertThat(r.toShortArray()).containsExactly(expectedResidual);
            check(
                    "add + RMSNorm",
                    Halves.decode(out.toShortArray()),
                    DecodeReference.rmsNorm(sum, Halves.decode(weight), rows, 1e-5));
        }
    }

    @Test
    void ropeMatchesTheReferenceFarIntoTheContext() {
        int rows = 3;
        int heads = 32;
        int kvHeads = 8;
        int d = 128;
        int[] positions = {0, 5, 131_071};
        double[] invFreq = RopeFrequencies.llama3(d, 500_000, 8, 1, 4, 8192);
        SplittableRandom rnd = new SplittableRandom(2);
        short[] q = Halves.gaussian(rnd, rows * heads * d, 1);
        short[] k = Halves.gaussian(rnd, rows * kvHeads * d, 1);
        try (DeviceBuffer dq = Halves.upload(q);
                DeviceBuffer dk = Halves.upload(k);
                DeviceBuffer pos = DeviceBuffer.allocate(4L * rows);
                DeviceBuffer freq = DeviceBuffer.allocate(8L * invFreq.length)) {
            pos.copyFrom(positions);
            freq.copyFrom(invFreq);
            kernels.rope(dq, dk, pos, freq, rows, heads, kvHeads, d, stream);
            stream.synchronize();
            double[] rq = Halves.decode(q);
            double[] rk = Halves.decode(k);
            DecodeReference.rope(rq, rows, heads, positions, invFreq);
            DecodeReference.rope(rk, rows, kvHeads, positions, invFreq);
            check("RoPE q", Halves.decode(dq.toShortArray()), rq);
            check("RoPE k", Halves.decode(dk.toShortArray()), rk);
        }
    }

    @Test
    void ropeAppendRotatesTheMergedProjectionAndFillsTheCaches() {
        int heads = 32;
        int kvHeads = 8;
        int d = 128;
        int capacity = 64;
        int position = 40;
        double[] invFreq = RopeFrequencies.of(d, 500_000);
        short[] qkv = Halves.gaussian(new SplittableRandom(6), (heads + 2 * kvHeads) * d, 1);
        try (DeviceBuffer dqkv = Halves.upload(qkv);
                DeviceBuffer kc = DeviceBuffer.allocate(2L * kvHeads * capacity * d);
                DeviceBuffer vc = DeviceBuffer.allocate(2L * kvHeads * capacity * d);
                DeviceBuffer pos = DeviceBuffer.allocate(4);
                DeviceBuffer freq = DeviceBuffer.allocate(8L * invFreq.length)) {
            kc.fill(0);
            vc.fill(0);
            pos.copyFrom(new int[] {position});
            freq.copyFrom(invFreq);
            kernels.ropeAppend(dqkv, kc, vc, pos, freq, 1, heads, kvHeads, d, capacity, stream);
            stream.synchronize();
            // the reference: q (heads) and k (kvHeads) rotated, v untouched
            double[] ref = Halves.decode(qkv);
            double[] qk = java.util.Arrays.copyOf(ref, (heads + kvHeads) * d);
            DecodeReference.rope(qk, 1, heads + kvHeads, new int[] {position}, invFreq);
            System.arraycopy(qk, 0, ref, 0, qk.length);
            short[] rotated = dqkv.toShortArray();
            check("merged RoPE", Halves.decode(rotated), ref);
            short[] kCache = kc.toShortArray();
            short[] vCache = vc.toShortArray();
            for (int g = 0; g < kvHeads; g++) {
                int dst = (g * capacity + position) * d;
                assertThat(java.util.Arrays.copyOfRange(kCache, dst, dst + d))
                        .as("k head %d in the cache", g)
                        .containsExactly(java.util.Arrays.copyOfRange(rotated, (heads + g) * d, (heads + g + 1) * d));
                assertThat(java.util.Arrays.copyOfRange(vCache, dst, dst + d))
                        .as("v head %d in the cache", g)
                        .containsExactly(java.util.Arrays.copyOfRange(
                                qkv, (heads + kvHeads + g) * d, (heads + kvHeads + g + 1) * d));
            }
        }
    }

    /**
     * RoPE + append into a BF16 or FP8 cache stores each rotated key and each value as {@link KvCacheFormat} says. The
     * FP8 scales are powers of two, so {@code h / scale} is exact in FP32 and double alike and the stored codes match
     * the host's rounding bit for bit.
     */
    @ParameterizedTest(name = "{0} cache, scales {1} and {2}")
    @CsvSource({"BF16, 1, 1", "FP8_E4M3, 1, 1", "FP8_E4M3, 0.5, 0.25", "FP16, 1, 1"})
    void ropeAppendStoresEachValueInTheCacheFormat(Precision precision, float keyScale, float valueScale) {
        KvCacheFormat kv = new KvCacheFormat(precision, keyScale, valueScale);
        int heads = 8;
        int kvHeads = 2;
        int d = 64;
        int capacity = 16;
        int position = 11;
        double[] invFreq = RopeFrequencies.of(d, 10_000);
        short[] qkv = Halves.gaussian(new SplittableRandom(8), (heads + 2 * kvHeads) * d, 3);
        long cacheBytes = (long) kv.elementBytes() * kvHeads * capacity * d;
        try (DeviceBuffer dqkv = Halves.upload(qkv);
                DeviceBuffer kc = DeviceBuffer.allocate(cacheBytes);
                DeviceBuffer vc = DeviceBuffer.allocate(cacheBytes);
                DeviceBuffer pos = DeviceBuffer.allocate(4);
                DeviceBuffer freq = DeviceBuffer.allocate(8L * invFreq.length)) {
            kc.fill(0);
            vc.fill(0);
            pos.copyFrom(new int[] {position});
            freq.copyFrom(invFreq);
            kernels.ropeAppend(dqkv, kc, vc, kv, pos, freq, 1, heads, kvHeads, d, capacity, stream);
            stream.synchronize();
            double[] rotated = Halves.decode(dqkv.toShortArray());
            double[] kCache = cacheValues(kc, kv, kv.keyScale());
            double[] vCache = cacheValues(vc, kv, kv.valueScale());
            for (int g = 0; g < kvHeads; g++) {
                int dst = (g * capacity + position) * d;
                for (int i = 0; i < d; i++) {
                    double key = rotated[(heads + g) * d + i];
                    double value = rotated[(heads + kvHeads + g) * d + i];
                    assertThat(kCache[dst + i])
                            .as("k head %d element %d of %s", g, i, key)
                            .isEqualTo(kv.roundKey(key));
                    assertThat(vCache[dst + i])
                            .as("v head %d element %d of %s", g, i, value)
                            .isEqualTo(kv.roundValue(value));
                }
            }
            assertThat(kCache[0]).as("a slot not written").isZero();
        }
    }

    /**
     * The q/k/v product with RoPE and the KV append in its epilogue leaves in the output and the caches the very bits
     * the one-row product (with the same norm scale) followed by {@link DecodeKernels#ropeAppend} leaves, for FP16 and
     * FP8 weights and each cache type, for the stack as one matrix and as three parts (q, k and v apart), far into the
     * context; the cache slots of other positions keep what they held. FP8 at 4096-6144 rows of K 4096 runs on the
     * tensor cores, as its plain product does (q alone at 32 heads of 128, and the stacks of 6144 and 4096 rows), its
     * smaller parts on the CUDA cores.
     */
    @ParameterizedTest(
            name = "{0} weights, {1} cache, scales {2} and {3}, {4}/{5} heads of {6}, K {7}, position {8}, {9} part(s)")
    @CsvSource({
        "FP16, FP16, 1, 1, 32, 8, 128, 4096, 40, 1",
        "FP16, FP16, 1, 1, 32, 8, 128, 4096, 1000, 3",
        "FP16, BF16, 1, 1, 8, 2, 64, 256, 100003, 1",
        "FP16, FP8_E4M3, 0.5, 0.25, 8, 2, 64, 256, 77, 3",
        "FP16, FP16, 1, 1, 4, 4, 64, 512, 5, 1",
        "FP8_E4M3, FP16, 1, 1, 32, 8, 128, 4096, 1000, 1",
        "FP8_E4M3, FP8_E4M3, 0.5, 0.25, 32, 8, 128, 4096, 77, 3",
        "FP8_E4M3, BF16, 1, 1, 48, 8, 64, 4096, 100003, 1",
        "FP8_E4M3, FP16, 1, 1, 8, 2, 64, 256, 5, 3"
    })
    void qkvRopeAppendLeavesWhatTheProductAndRopeAppendLeave(
            WeightFormat format,
            Precision precision,
            float keyScale,
            float valueScale,
            int heads,
            int kvHeads,
            int d,
            int k,
            int position,
            int parts) {
        KvCacheFormat kv = new KvCacheFormat(precision, keyScale, valueScale);
        int rows = (heads + 2 * kvHeads) * d;
        int capacity = position + 3;
        double[] invFreq = RopeFrequencies.of(d, 500_000);
        SplittableRandom rnd = new SplittableRandom(31 + parts);
        short[] w = Halves.gaussian(rnd, rows * k, 1 / Math.sqrt(k));
        short[] x = Halves.gaussian(rnd, k, 1);
        // FP8: the FP16 draws quantized per row (per-channel scales), so each part is its rows of the whole
        QuantizedWeights q8 = format == WeightFormat.FP8_E4M3
                ? QuantizedWeights.quantize(format, floats(Halves.decode(w)), rows, k)
                : null;
        // the norm scale's sums: sum x^2 / K + eps = 0.81, spread over the partial sums
        float[] sums = new float[GemvKernels.Epilogue.SUM_SPREAD];
        Arrays.fill(sums, (float) (0.81 * k / sums.length));
        long cacheBytes = (long) kv.elementBytes() * kvHeads * capacity * d;
        int[] partRows = parts == 1 ? new int[] {rows} : new int[] {heads * d, kvHeads * d, kvHeads * d};
        try (GemvKernels gemv = GemvKernels.load();
                DeviceBuffer xd = Halves.upload(x);
                DeviceBuffer sd = DeviceBuffer.allocate(4L * sums.length);
                DeviceBuffer yA = DeviceBuffer.allocate(2L * rows);
                DeviceBuffer yB = DeviceBuffer.allocate(2L * rows);
                DeviceBuffer kA = DeviceBuffer.allocate(cacheBytes);
                DeviceBuffer vA = DeviceBuffer.allocate(cacheBytes);
                DeviceBuffer kB = DeviceBuffer.allocate(cacheBytes);
                DeviceBuffer vB = DeviceBuffer.allocate(cacheBytes);
                DeviceBuffer pos = DeviceBuffer.allocate(4);
                DeviceBuffer freq = DeviceBuffer.allocate(8L * invFreq.length)) {
            sd.copyFrom(sums);
            pos.copyFrom(new int[] {position});
            freq.copyFrom(invFreq);
            for (DeviceBuffer c : new DeviceBuffer[] {kA, vA, kB, vB}) {
                c.fill(0x25);
            }
            GemvKernels.Epilogue scale = GemvKernels.Epilogue.normScale(sd.pointer(), k, 1e-5f);
            // the reference products part by part, as GemvKernels runs each (an FP8 part of 1024 rows on the CUDA cores
            // although the whole stack of 6144 runs on the tensor cores)
            int done = 0;
            for (int r : partRows) {
                try (DeviceWeights p = part(format, w, q8, done, r, k)) {
                    gemv.gemv(p, xd, yA.slice(2L * done, 2L * r), 1, Activation.F16, scale, stream);
                    stream.synchronize();
                }
                done += r;
            }
            kernels.ropeAppend(yA, kA, vA, kv, pos, freq, 1, heads, kvHeads, d, capacity, stream);
            // the fused kernel part by part into yB and the caches kB, vB; FP8 on the tensor cores where the shape runs
            // there, or on the CUDA cores
            Consumer<Boolean> fused = tensorCores -> {
                int first = 0;
                for (int r : partRows) {
                    try (DeviceWeights p = part(format, w, q8, first, r, k)) {
                        kernels.qkvRopeAppend(
                                p,
                                xd,
                                yB.slice(2L * first, 2L * r),
                                scale,
                                first / d,
                                kB,
                                vB,
                                kv,
                                pos,
                                freq,
                                heads,
                                kvHeads,
                                d,
                                capacity,
                                tensorCores,
                                stream);
                        stream.synchronize();
                    }
                    first += r;
                }
            };
            fused.accept(true);
            stream.synchronize();
            short[] a = yA.toShortArray();
            assertThat(yB.toShortArray()).as("q, k and v after RoPE").containsExactly(a);
            assertThat(Arrays.stream(Halves.decode(a)).map(Math::abs).max().orElse(0))
                    .as("the largest output")
                    .isGreaterThan(0.1);
            assertThat(kB.toByteArray()).as("the k cache").containsExactly(kA.toByteArray());
            assertThat(vB.toByteArray()).as("the v cache").containsExactly(vA.toByteArray());
            byte[] keys = kB.toByteArray();
            int slot = kv.elementBytes() * position * d; // KV head 0's row at the position
            assertThat(Arrays.copyOfRange(keys, slot, slot + kv.elementBytes() * d))
                    .as("the appended key row")
                    .isNotEqualTo(filled(kv.elementBytes() * d, (byte) 0x25));
            assertThat(keys[0]).as("a slot of another position").isEqualTo((byte) 0x25);
            if (q8 != null) {
                // FP8 kept on the CUDA cores (tensorCores false): the same values, summed in another order, so within
                // a rounding or two of FP16 (2^-9 of the largest output) where the tensor cores summed them
                fused.accept(false);
                double[] expected = Halves.decode(a);
                double[] cudaCores = Halves.decode(yB.toShortArray());
                double largest = Arrays.stream(expected).map(Math::abs).max().orElse(0);
                for (int i = 0; i < expected.length; i++) {
                    assertThat(cudaCores[i])
                            .as("output %d on the CUDA cores", i)
                            .isCloseTo(expected[i], within(largest / 512));
                }
            }
        }
    }

    /** Rows [first, first + count) of a K-column matrix: FP16 draws {@code w}, or their FP8 quantization. */
    private static DeviceWeights part(
            WeightFormat format, short[] w, QuantizedWeights q8, int first, int count, int k) {
        if (q8 == null) {
            short[] part = Arrays.copyOfRange(w, first * k, (first + count) * k);
            return new DeviceWeights(WeightFormat.FP16, count, k, Halves.upload(part), null, 1f);
        }
        return DeviceWeights.upload(
                format,
                count,
                k,
                Arrays.copyOfRange(q8.weights(), first * k, (first + count) * k),
                Arrays.copyOfRange(q8.scales(), 4 * first, 4 * (first + count)),
                1f);
    }

    private static float[] floats(double[] d) {
        float[] f = new float[d.length];
        for (int i = 0; i < d.length; i++) {
            f[i] = (float) d[i];
        }
        return f;
    }

    @Test
    void qkvRopeAppendRefusesWhatItDoesNotRun() {
        int d = 64;
        int k = 256;
        try (DeviceWeights int8 = new DeviceWeights(
                        WeightFormat.INT8,
                        12 * d,
                        k,
                        DeviceBuffer.allocate(12L * d * k),
                        DeviceBuffer.allocate(4L * 12 * d),
                        1f);
                DeviceWeights fp16 = new DeviceWeights(
                        WeightFormat.FP16, 12 * d + 8, k, DeviceBuffer.allocate(2L * (12 * d + 8) * k), null, 1f);
                DeviceWeights ok =
                        new DeviceWeights(WeightFormat.FP16, 12 * d, k, DeviceBuffer.allocate(24L * d * k), null, 1f);
                DeviceBuffer x = DeviceBuffer.allocate(2L * k);
                DeviceBuffer y = DeviceBuffer.allocate(2L * 13 * d);
                DeviceBuffer cache = DeviceBuffer.allocate(2L * 2 * 16 * d);
                DeviceBuffer pos = DeviceBuffer.allocate(4);
                DeviceBuffer freq = DeviceBuffer.allocate(8L * d / 2)) {
            // 8 q and 2 KV heads of 64: 12 heads, caches of 16 positions
            interface Launch {
                void run(DeviceWeights w, GemvKernels.Epilogue e, int head0, int capacity);
            }
            Launch launch = (w, e, head0, capacity) -> kernels.qkvRopeAppend(
                    w, x, y, e, head0, cache, cache, KvCacheFormat.FP16, pos, freq, 8, 2, d, capacity, true, stream);
            GemvKernels.Epilogue none = GemvKernels.Epilogue.NONE;
            assertThatThrownBy(() -> launch.run(int8, none, 0, 16))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("row-major FP16 or FP8")
                    .hasMessageContaining("INT8");
            assertThatThrownBy(() -> launch.run(fp16, none, 0, 16))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("whole heads of 64");
            assertThatThrownBy(() -> launch.run(ok, none, 1, 16))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("from head 1")
                    .hasMessageContaining("12 q, k and v heads");
            assertThatThrownBy(() ->
                            launch.run(ok, GemvKernels.Epilogue.addNorm(y, y, pos.pointer(), pos.pointer()), 0, 16))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("not a residual add");
            assertThatThrownBy(() -> launch.run(ok, none, 0, 32))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("kCache holds");
        }
    }

    private static byte[] filled(int n, byte b) {
        byte[] a = new byte[n];
        Arrays.fill(a, b);
        return a;
    }

    /**
     * Attention over BF16 and FP8 caches: random stored codes, the reference attending over exactly what they decode
     * to (times the scales), so the bound is the FP16 output's, as for FP16 caches. Both at both head sizes (the tensor
     * cores but for FP8 at 64, which takes the CUDA cores) and at groups of 1, 2, 4 and 8 query heads per KV head (32
     * query heads): each shape is a kernel of its own. Keys of magnitude {@code keyMagnitude} meet a q of magnitude
     * {@code 1 / keyMagnitude}: at 2^20 the BF16 keys lie past FP16's largest value (65504) and q's halves are FP16
     * subnormals, which the BF16 kernels' split of q must keep (their few significant bits all in its hi part; the rows
     * of magnitude 1 hold q's lo parts).
     */
    @ParameterizedTest(name = "{0} cache, scales {1} and {2}, lengths {3}, head size {4}, {5} KV heads, keys x {6}")
    @CsvSource({
        "BF16, 1, 1, 4096, 128, 8, 1",
        "BF16, 1, 1, 1;17;4096;300, 128, 8, 1",
        "BF16, 1, 1, 1;17;4096;300, 64, 8, 1",
        "BF16, 1, 1, 32768, 128, 8, 1",
        "BF16, 1, 1, 300;7, 128, 32, 1",
        "BF16, 1, 1, 1000;33, 64, 16, 1",
        "BF16, 1, 1, 1000, 128, 4, 1",
        "BF16, 1, 1, 1000, 128, 16, 1",
        "BF16, 1, 1, 300;7, 64, 32, 1",
        "BF16, 1, 1, 257, 64, 4, 1",
        "BF16, 1, 1, 257;4096, 128, 8, 1048576",
        "FP8_E4M3, 0.0625, 0.03125, 1;17;4096;300, 128, 8, 1",
        "FP8_E4M3, 0.0625, 0.03125, 32768, 128, 8, 1",
        "FP8_E4M3, 1, 1, 257, 128, 8, 1",
        "FP8_E4M3, 0.0625, 0.03125, 1;17;4096;300, 64, 8, 1",
        "FP8_E4M3, 1, 1, 257, 64, 4, 1",
        "FP8_E4M3, 0.0625, 0.03125, 1000;33, 128, 4, 1",
        "FP8_E4M3, 0.0625, 0.03125, 300;7, 64, 32, 1",
        "FP8_E4M3, 0.0625, 0.03125, 300;7, 128, 32, 1",
        "FP8_E4M3, 1, 1, 1000, 128, 16, 1"
    })
    void attentionReadsBf16AndFp8Caches(
            Precision precision,
            float keyScale,
            float valueScale,
            String lengthList,
            int d,
            int kvHeads,
            double keyMagnitude) {
        attendOverStoredCodes(
                new KvCacheFormat(precision, keyScale, valueScale), lengthList, d, kvHeads, keyMagnitude, 0);
    }

    /**
     * Every key and value past its row's length a NaN code, in a cache 106 tokens longer than the longest row: no
     * kernel may read one into a sum (a zero weight times NaN is NaN), though the tensor-core kernels run their
     * products over whole 16-token groups, the rows past a chunk zero-filled, and the CUDA-core ones skip those rows.
     * No length but 1 is a multiple of 16, so each row's last group holds NaN rows whatever the chunk (a multiple of
     * 16); a NaN key row reaches only its own logit, which is not kept, so it is the values the test guards.
     */
    @ParameterizedTest(name = "{0} cache, head size {1}, {2} KV heads")
    @CsvSource({
        "FP16, 128, 8",
        "FP16, 64, 8",
        "BF16, 128, 8",
        "BF16, 64, 8",
        "FP8_E4M3, 128, 8",
        "FP8_E4M3, 128, 32",
        "FP8_E4M3, 128, 4",
        "FP8_E4M3, 64, 8"
    })
    void attentionNeverReadsPastEachLength(Precision precision, int d, int kvHeads) {
        attendOverStoredCodes(new KvCacheFormat(precision, 1, 1), "1;17;300;990", d, kvHeads, 1, 106);
    }

    /**
     * Attention over random stored codes against the reference over exactly what they decode to, in a cache of the
     * longest length plus {@code nanTail} tokens; with a tail, every element past its row's length is a NaN code.
     */
    private void attendOverStoredCodes(
            KvCacheFormat kv, String lengthList, int d, int kvHeads, double keyMagnitude, int nanTail) {
        Precision precision = kv.precision();
        float keyScale = kv.keyScale();
        float valueScale = kv.valueScale();
        int[] lengths =
                Arrays.stream(lengthList.split(";")).mapToInt(Integer::parseInt).toArray();
        int rows = lengths.length;
        int heads = 32;
        int maxLength = Arrays.stream(lengths).max().orElseThrow();
        int capacity = maxLength + nanTail;
        SplittableRandom rnd = new SplittableRandom(9 + maxLength);
        short[] q = Halves.gaussian(rnd, rows * heads * d, 1 / keyMagnitude);
        int elements = rows * kvHeads * capacity * d;
        MiniFloat codec = MiniFloat.of(precision);
        int nan = codec.encode(Double.NaN, Overflow.NON_SATURATING);
        assertThat(codec.decode(nan)).as("the NaN code").isNaN();
        byte[] kBytes = new byte[elements * kv.elementBytes()];
        byte[] vBytes = new byte[elements * kv.elementBytes()];
        double[] k = new double[elements];
        double[] v = new double[elements];
        for (int i = 0; i < elements; i++) {
            int row = i / (kvHeads * capacity * d);
            int token = i / d % capacity;
            if (nanTail > 0 && token >= lengths[row]) {
                // the reference never reads past a length either
                k[i] = store(codec, kBytes, i, Double.NaN);
                v[i] = store(codec, vBytes, i, Double.NaN);
                continue;
            }
            // keys of order keyMagnitude, values of order one, stored over their scales
            k[i] = store(codec, kBytes, i, rnd.nextGaussian() * keyMagnitude / keyScale) * keyScale;
            v[i] = store(codec, vBytes, i, rnd.nextGaussian() / valueScale) * valueScale;
        }
        try (DeviceBuffer dq = Halves.upload(q);
                DeviceBuffer kc = DeviceBuffer.allocate(kBytes.length);
                DeviceBuffer vc = DeviceBuffer.allocate(vBytes.length);
                DeviceBuffer len = DeviceBuffer.allocate(4L * rows);
                DeviceBuffer ws =
                        DeviceBuffer.allocate(kernels.attentionWorkspaceBytes(rows, heads, kvHeads, d, maxLength));
                DeviceBuffer out = DeviceBuffer.allocate(2L * rows * heads * d)) {
            kc.copyFrom(kBytes);
            vc.copyFrom(vBytes);
            len.copyFrom(lengths);
            kernels.attention(
                    dq,
                    kc,
                    vc,
                    kv,
                    len,
                    ws,
                    out,
                    AttentionGeometry.packed(rows, heads, kvHeads, d, capacity),
                    maxLength,
                    stream);
            stream.synchronize();
            double[] ref =
                    DecodeReference.attention(Halves.decode(q), k, v, lengths, rows, heads, kvHeads, d, capacity);
            check(kv + " attention, lengths " + lengthList, Halves.decode(out.toShortArray()), ref);
        }
    }

    @Test
    void aCacheTooSmallForItsFormatIsRefused() {
        try (DeviceBuffer big = DeviceBuffer.allocate(1 << 20);
                DeviceBuffer fp8Sized = DeviceBuffer.allocate(8L * 64 * 128)) {
            // an FP8-sized cache (1 byte per element) passed as FP16 is half what FP16 needs
            assertThatThrownBy(() -> kernels.attention(
                            big,
                            fp8Sized,
                            fp8Sized,
                            KvCacheFormat.FP16,
                            big,
                            big,
                            big,
                            AttentionGeometry.packed(1, 32, 8, 128, 64),
                            64,
                            stream))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("kCache holds 65536 bytes; the shape needs 131072");
        }
    }

    /** Encodes {@code value} into element {@code i} of {@code bytes} (little-endian); returns the value stored. */
    private static double store(MiniFloat codec, byte[] bytes, int i, double value) {
        int code = codec.encode(value, Double.isNaN(value) ? Overflow.NON_SATURATING : Overflow.SATURATE);
        if (codec.precision().elementBits() == 8) {
            bytes[i] = (byte) code;
        } else {
            bytes[2 * i] = (byte) code;
            bytes[2 * i + 1] = (byte) (code >>> 8);
        }
        return codec.decode(code);
    }

    /** A cache's stored elements, each decoded and times {@code scale}. */
    private static double[] cacheValues(DeviceBuffer cache, KvCacheFormat kv, float scale) {
        byte[] bytes = cache.toByteArray();
        MiniFloat codec = MiniFloat.of(kv.precision());
        double[] values = new double[bytes.length / kv.elementBytes()];
        for (int i = 0; i < values.length; i++) {
            int code =
                    kv.elementBytes() == 1 ? bytes[i] & 0xFF : (bytes[2 * i] & 0xFF) | (bytes[2 * i + 1] & 0xFF) << 8;
            values[i] = codec.decode(code) * scale;
        }
        return values;
    }

    @Test
    void kvAppendWritesEachRowAtItsPosition() {
        int rows = 2;
        int kvHeads = 4;
        int d = 64;
        int capacity = 10;
        SplittableRandom rnd = new SplittableRandom(3);
        short[] k = Halves.gaussian(rnd, rows * kvHeads * d, 1);
        short[] v = Halves.gaussian(rnd, rows * kvHeads * d, 1);
        int[] positions = {9, 0};
        try (DeviceBuffer dk = Halves.upload(k);
                DeviceBuffer dv = Halves.upload(v);
                DeviceBuffer kc = DeviceBuffer.allocate(2L * rows * kvHeads * capacity * d);
                DeviceBuffer vc = DeviceBuffer.allocate(2L * rows * kvHeads * capacity * d);
                DeviceBuffer pos = DeviceBuffer.allocate(4L * rows)) {
            kc.fill(0);
            vc.fill(0);
            pos.copyFrom(positions);
            kernels.kvAppend(dk, dv, kc, vc, pos, rows, kvHeads, d, capacity, stream);
            stream.synchronize();
            short[] kCache = kc.toShortArray();
            short[] vCache = vc.toShortArray();
            short[] expectedK = new short[kCache.length];
            short[] expectedV = new short[vCache.length];
            for (int b = 0; b < rows; b++) {
                for (int g = 0; g < kvHeads; g++) {
                    int src = (b * kvHeads + g) * d;
                    int dst = ((b * kvHeads + g) * capacity + positions[b]) * d;
                    System.arraycopy(k, src, expectedK, dst, d);
                    System.arraycopy(v, src, expectedV, dst, d);
                }
            }
            assertThat(kCache).containsExactly(expectedK);
            assertThat(vCache).containsExactly(expectedV);
        }
    }

    @Test
    void siluMulMatchesTheReference() {
        int rows = 2;
        int inter = 14_336;
        short[] gateUp = Halves.gaussian(new SplittableRandom(4), 2 * rows * inter, 2);
        try (DeviceBuffer in = Halves.upload(gateUp);
                DeviceBuffer out = DeviceBuffer.allocate(2L * rows * inter)) {
            kernels.siluMul(in, out, rows, inter, stream);
            stream.synchronize();
            check(
                    "SiLU * up",
                    Halves.decode(out.toShortArray()),
                    DecodeReference.siluMul(Halves.decode(gateUp), rows, inter));
        }
    }

    /**
     * One row against the double reference, from one token to 131072; on an H100 or H200 131072 tokens make 328 splits,
     * more than the merge's lanes hold, and 8192 at head size 64 make 74, which the 8-column merge takes at that size.
     */
    @ParameterizedTest(name = "one row, {0} tokens, 32 query heads on 8 KV heads of {1}")
    @CsvSource({
        "1, 128",
        "17, 128",
        "4096, 128",
        "32768, 128",
        "131072, 128",
        "300, 64",
        "8192, 64",
        "256, 128",
        "257, 128"
    })
    void attentionMatchesTheReference(int length, int d) {
        attention(new int[] {length}, 32, 8, d, length);
    }

    /**
     * Every group size on FP16 caches, whose two products run on the tensor cores with the group's query heads as the
     * rows of the mma's A (at most 8 of its 16): 2 and 8 query heads per KV head, and one at head size 128 (64 with one:
     * {@link #multiHeadAttentionWithoutGrouping}), over rows whose chunks end inside a tile.
     */
    @ParameterizedTest(name = "{0} query heads on {1} KV heads of {2}, lengths {3}")
    @CsvSource({"16, 8, 128, 1000;33", "64, 8, 128, 1000;33", "8, 8, 128, 257", "64, 8, 64, 1000;7", "16, 8, 64, 300"})
    void attentionOfEveryGroupSize(int heads, int kvHeads, int d, String lengthList) {
        int[] lengths =
                Arrays.stream(lengthList.split(";")).mapToInt(Integer::parseInt).toArray();
        attention(lengths, heads, kvHeads, d, Arrays.stream(lengths).max().orElseThrow());
    }

    /**
     * Attention that one token dominates: each head's q is 3 times one key of its KV head, so that token's logit
     * stands ~30 above the rest and its weight is ~1. The tensor cores take the weights as FP16; the output must still
     * hold the reference's bound.
     */
    @Test
    void attentionOnOneTokenMatchesTheReference() {
        int[] lengths = {1000, 77};
        int rows = lengths.length;
        int heads = 32;
        int kvHeads = 8;
        int d = 128;
        int capacity = 1000;
        SplittableRandom rnd = new SplittableRandom(17);
        short[] k = Halves.gaussian(rnd, rows * kvHeads * capacity * d, 1);
        short[] v = Halves.gaussian(rnd, rows * kvHeads * capacity * d, 1);
        double[] kd = Halves.decode(k);
        double[] qd = new double[rows * heads * d];
        for (int b = 0; b < rows; b++) {
            for (int h = 0; h < heads; h++) {
                int g = h / (heads / kvHeads);
                int t = (h * 37 + 11) % lengths[b];
                for (int i = 0; i < d; i++) {
                    qd[(b * heads + h) * d + i] = 3 * kd[((b * kvHeads + g) * capacity + t) * d + i];
                }
            }
        }
        attention(Halves.encode(qd), k, v, lengths, heads, kvHeads, d, capacity);
    }

    @Test
    void attentionOverARaggedBatch() {
        attention(new int[] {1, 17, 4096, 300}, 32, 8, 128, 4096);
    }

    @Test
    void multiHeadAttentionWithoutGrouping() {
        attention(new int[] {1000, 3}, 8, 8, 64, 1024);
    }

    @Test
    void aRowTheNormCannotHoldInRegistersIsRefused() {
        try (DeviceBuffer b = DeviceBuffer.allocate(1 << 20)) {
            // 256 threads x 8 pieces x 8 halves = 16384; 4100 is not a multiple of 8
            assertThatThrownBy(() -> kernels.addRmsNorm(b, null, b, b, 1, 16392, 1e-5f, stream))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("hidden must be a multiple of 8 in [8, 16384], got 16392");
            assertThatThrownBy(() -> kernels.addRmsNorm(b, null, b, b, 1, 4100, 1e-5f, stream))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("got 4100");
        }
    }

    @Test
    void aWorkspaceTooSmallIsRefusedBeforeTheLaunch() {
        try (DeviceBuffer small = DeviceBuffer.allocate(64)) {
            assertThatThrownBy(() ->
                            kernels.attention(small, small, small, small, small, small, 1, 32, 8, 128, 1, 1, stream))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("holds 64 bytes");
        }
    }

    private static void attention(int[] lengths, int heads, int kvHeads, int d, int capacity) {
        int rows = lengths.length;
        int maxLength = Arrays.stream(lengths).max().orElseThrow();
        SplittableRandom rnd = new SplittableRandom(5 + maxLength);
        short[] q = Halves.gaussian(rnd, rows * heads * d, 1);
        short[] k = Halves.gaussian(rnd, rows * kvHeads * capacity * d, 1);
        short[] v = Halves.gaussian(rnd, rows * kvHeads * capacity * d, 1);
        attention(q, k, v, lengths, heads, kvHeads, d, capacity);
    }

    /** The attention over FP16 q, k and v (k and v: capacity tokens a KV head) against the CPU reference. */
    private static void attention(
            short[] q, short[] k, short[] v, int[] lengths, int heads, int kvHeads, int d, int capacity) {
        int rows = lengths.length;
        int maxLength = Arrays.stream(lengths).max().orElseThrow();
        try (DeviceBuffer dq = Halves.upload(q);
                DeviceBuffer kc = Halves.upload(k);
                DeviceBuffer vc = Halves.upload(v);
                DeviceBuffer len = DeviceBuffer.allocate(4L * rows);
                DeviceBuffer ws =
                        DeviceBuffer.allocate(kernels.attentionWorkspaceBytes(rows, heads, kvHeads, d, maxLength));
                DeviceBuffer out = DeviceBuffer.allocate(2L * rows * heads * d)) {
            len.copyFrom(lengths);
            kernels.attention(dq, kc, vc, len, ws, out, rows, heads, kvHeads, d, capacity, maxLength, stream);
            stream.synchronize();
            double[] ref = DecodeReference.attention(
                    Halves.decode(q), Halves.decode(k), Halves.decode(v), lengths, rows, heads, kvHeads, d, capacity);
            check("attention, lengths " + Arrays.toString(lengths), Halves.decode(out.toShortArray()), ref);
        }
    }

    private static void check(String what, double[] y, double[] ref) {
        Agreement.check(what, y, ref, 1e-3, 2e-3);
    }
}
