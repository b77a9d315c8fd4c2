package dev.roofline.cuda.decode;

import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.cuda.Device;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.blas.CublasLt;
import dev.roofline.cuda.blas.Matmul;
import dev.roofline.cuda.blas.MatmulOptions;
import dev.roofline.cuda.blas.Operands;
import dev.roofline.cuda.internal.OwnedResources;
import dev.roofline.cuda.kernels.Activation;
import dev.roofline.cuda.kernels.DeviceWeights;
import dev.roofline.cuda.kernels.GemvKernels;
import dev.roofline.cuda.kernels.KernelLaunch;
import dev.roofline.cuda.kernels.WeightFormat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link DenseDecoder}'s matrix products {@code y = x · Wᵀ} at its batch, FP16 activations: roofline's GEMV kernels
 * or cuBLASLt, by format and batch ({@link #usesGemv}). A {@link StackedWeights} runs one product per part, each into
 * its rows of {@code y}: in place at batch 1, where those rows are one range; above, where each sequence's row of
 * {@code y} holds every part's outputs, through a part buffer and a device copy per part and sequence. Owns the kernels,
 * the cuBLASLt handle and plans and that buffer, not the weights.
 */
final class DecoderLinears implements AutoCloseable {
    /** The most rows roofline's GEMV kernels take; above, FP16 runs cuBLASLt and the other formats are refused. */
    static final int GEMV_MAX_ROWS = GemvKernels.MAX_ROWS;

    private final Device device;
    private final int batch;
    private final OwnedResources owned = new OwnedResources();
    private final Map<String, Matmul> plans = new HashMap<>();
    private final GemvKernels gemv;
    private final CublasLt lt;
    /** One part's outputs for every sequence, when a stack has several parts and the batch is above 1; else null. */
    private final DeviceBuffer partOutput;

    DecoderLinears(Device device, DecoderWeights weights, int batch, KernelLaunch launch) {
        this.device = device;
        this.batch = batch;
        try {
            gemv = owned.add(GemvKernels.load(launch));
            lt = batch > 1 ? owned.add(CublasLt.create()) : null;
            int partRows = batch == 1 ? 0 : largestPartOfSeveral(weights);
            partOutput = partRows == 0 ? null : owned.add(DeviceBuffer.allocate(2L * batch * partRows));
            // every cuBLASLt plan now: planning allocates device memory, which a CUDA graph capture does not allow
            for (DecoderWeights.Layer w : weights.layers()) {
                plan(w.o());
                w.qkv().parts().forEach(this::plan);
                if (w.experts() == null) { // a router runs the GEMV at any batch, experts the grouped GEMVs
                    plan(w.down());
                    w.gateUp().parts().forEach(this::plan);
                }
            }
            plan(weights.lmHead());
        } catch (RuntimeException e) {
            try {
                owned.close();
            } catch (RuntimeException c) {
                e.addSuppressed(c);
            }
            throw e;
        }
    }

    /**
     * Refuses a batch that some matrix of {@code weights} cannot run: above {@link #GEMV_MAX_ROWS} rows only FP16
     * weights have a product (cuBLASLt's).
     */
    static void checkBatch(DecoderWeights weights, int batch) {
        for (WeightFormat f : weights.formats()) {
            if (!runs(f, batch)) {
                throw new IllegalArgumentException("batch " + batch + " needs a matrix product above "
                        + GEMV_MAX_ROWS + " rows, which runs on cuBLASLt for FP16 weights only; " + f
                        + " weights run batches of up to " + GEMV_MAX_ROWS);
            }
        }
    }

    /** Whether {@code format} has a product at this batch: every format up to {@link #GEMV_MAX_ROWS} rows, FP16 above. */
    static boolean runs(WeightFormat format, int batch) {
        return batch <= GEMV_MAX_ROWS || format == WeightFormat.FP16;
    }

    /**
     * Whether a linear of {@code format} at this batch runs roofline's GEMV: FP16 at one row, above it cuBLASLt, which
     * is faster there than the GEMV's many-row kernel; every other format up to {@link #GEMV_MAX_ROWS} rows. cuBLASLt
     * has no weight-only product for the 8- and 4-bit formats, and multiplies BF16 weights by BF16 activations only,
     * not by the decoder's FP16 ones, which the GEMV's BF16 kernels read.
     */
    static boolean usesGemv(WeightFormat format, int batch) {
        return batch == 1 || (format != WeightFormat.FP16 && batch <= GEMV_MAX_ROWS);
    }

    /** {@code y = x · Wᵀ}, {@code y} = {@code half[batch][w.rows()]}: each part's product into its rows. */
    void run(StackedWeights w, DeviceBuffer x, DeviceBuffer y, Stream stream) {
        run(w, x, y, GemvKernels.Epilogue.NONE, stream);
    }

    /**
     * {@link #run(StackedWeights, DeviceBuffer, DeviceBuffer, Stream)} with {@code epilogue} on every part's outputs:
     * a norm scale or clearing sums (a residual add belongs to one matrix: {@link #run(DeviceWeights, DeviceBuffer,
     * DeviceBuffer, GemvKernels.Epilogue, Stream)}).
     */
    void run(StackedWeights w, DeviceBuffer x, DeviceBuffer y, GemvKernels.Epilogue epilogue, Stream stream) {
        List<DeviceWeights> parts = w.parts();
        if (parts.size() == 1) {
            run(parts.getFirst(), x, y, epilogue, stream);
            return;
        }
        if (epilogue.addsResidual()) {
            throw new IllegalArgumentException("a residual add runs on one matrix, not on a stack of " + parts.size());
        }
        long rowBytes = 2L * w.rows();
        long first = 0;
        for (DeviceWeights p : parts) {
            long bytes = 2L * p.rows();
            if (batch == 1) {
                run(p, x, y.slice(first, bytes), epilogue, stream);
            } else {
                DeviceBuffer out = partOutput.slice(0, batch * bytes);
                run(p, x, out, epilogue, stream);
                for (int b = 0; b < batch; b++) {
                    y.slice(b * rowBytes + first, bytes).copyFromAsync(out.slice(b * bytes, bytes), bytes, stream);
                }
            }
            first += bytes;
        }
    }

    /**
     * {@code y = x · Wᵀ} on roofline's GEMV at any batch up to {@link #GEMV_MAX_ROWS}: for a mixture's router, whose
     * few rows (one per expert) are no work for cuBLASLt, and whose FP16 rows would not always meet its alignment.
     */
    void gemv(DeviceWeights w, DeviceBuffer x, DeviceBuffer y, Stream stream) {
        gemv.gemv(w, x, y, batch, Activation.F16, stream);
    }

    /** {@code y = x · Wᵀ}, {@code y} = {@code half[batch][w.rows()]}. */
    void run(DeviceWeights w, DeviceBuffer x, DeviceBuffer y, Stream stream) {
        run(w, x, y, GemvKernels.Epilogue.NONE, stream);
    }

    /**
     * {@code y = x · Wᵀ} with {@code epilogue} on the outputs; an epilogue other than {@link
     * GemvKernels.Epilogue#NONE} needs the GEMV ({@link DenseDecoder#fusesNorms}).
     */
    void run(DeviceWeights w, DeviceBuffer x, DeviceBuffer y, GemvKernels.Epilogue epilogue, Stream stream) {
        if (usesGemv(w.format(), batch)) {
            gemv.gemv(w, x, y, batch, Activation.F16, epilogue, stream);
            return;
        }
        if (!epilogue.none()) {
            throw new IllegalStateException(w.format() + " at batch " + batch + " runs on cuBLASLt, which takes no"
                    + " residual add or norm scale");
        }
        plans.get(key(w)).run(Operands.of(w.weights(), x, y), stream);
    }

    /** Plans {@code w}'s cuBLASLt product once per shape and format, when this batch runs it on cuBLASLt. */
    private void plan(DeviceWeights w) {
        if (!usesGemv(w.format(), batch)) {
            plans.computeIfAbsent(
                    key(w),
                    k -> owned.add(Matmul.plan(
                            lt,
                            Gemm.of(batch, w.rows(), w.cols())
                                    .in(w.format().precision())
                                    .withOutput(Precision.FP16),
                            device,
                            MatmulOptions.defaults())));
        }
    }

    private static String key(DeviceWeights w) {
        return w.format() + " " + w.rows() + "x" + w.cols();
    }

    /** Rows of the largest part of a stack of several parts; 0 when every stack is one matrix. */
    private static int largestPartOfSeveral(DecoderWeights weights) {
        int rows = 0;
        for (DecoderWeights.Layer w : weights.layers()) {
            for (StackedWeights s : w.gateUp() == null ? List.of(w.qkv()) : List.of(w.qkv(), w.gateUp())) {
                if (s.parts().size() > 1) {
                    for (DeviceWeights p : s.parts()) {
                        rows = Math.max(rows, p.rows());
                    }
                }
            }
        }
        return rows;
    }

    /** Frees the plans, the part buffer, the cuBLASLt handle and the kernels, last made first. */
    @Override
    public void close() {
        owned.close();
    }
}
