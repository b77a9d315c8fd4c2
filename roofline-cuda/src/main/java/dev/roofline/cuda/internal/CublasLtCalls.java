package dev.roofline.cuda.internal;

import dev.roofline.bindings.cublaslt.cublasLtMatmulHeuristicResult_t;
import dev.roofline.bindings.cublaslt.cublaslt_h;
import dev.roofline.bindings.loader.LibraryNotFoundException;
import dev.roofline.bindings.loader.NativeAccessDeniedException;
import dev.roofline.bindings.loader.NativeLibraries;
import dev.roofline.bindings.loader.NativeLibrary;
import dev.roofline.bindings.loader.OwnedHandle;
import dev.roofline.cuda.CudaUnavailableException;
import dev.roofline.cuda.blas.CublasException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.ToIntFunction;

/**
 * The checked layer over {@code cublaslt_h}: each method makes the cuBLASLt calls for one step of planning or running a
 * matmul and turns a status other than success into a {@link CublasException} (see {@link CublasStatus}).
 * roofline-cuda's exported classes reach cuBLASLt only through here.
 */
public final class CublasLtCalls {
    /** The noun in "... already closed" for every object a matmul plan owns. */
    private static final String MATMUL = "matmul";

    /** The operands whose per-tensor FP8 scale a device pointer supplies. */
    public enum ScalePointer {
        A,
        B,
        D;

        int attribute() {
            return switch (this) {
                case A -> cublaslt_h.CUBLASLT_MATMUL_DESC_A_SCALE_POINTER();
                case B -> cublaslt_h.CUBLASLT_MATMUL_DESC_B_SCALE_POINTER();
                case D -> cublaslt_h.CUBLASLT_MATMUL_DESC_D_SCALE_POINTER();
            };
        }
    }

    private CublasLtCalls() {}

    /**
     * Loads {@code libcublasLt.so.13} (see {@link NativeLibraries#load}).
     *
     * @throws CudaUnavailableException naming why: no copy found, the file found is not cuBLASLt (its path and the
     *                                  functions it lacks), or native access denied
     */
    public static void load() {
        try {
            NativeLibraries.load(NativeLibrary.CUBLASLT);
        } catch (LibraryNotFoundException e) {
            throw new CudaUnavailableException("no cuBLASLt: " + e.getMessage(), e);
        } catch (NativeAccessDeniedException e) {
            throw new CudaUnavailableException(e.getMessage(), e);
        }
    }

    /** e.g. 130000 for cuBLAS 13.0.0. */
    public static long version() {
        return cublaslt_h.cublasLtGetVersion();
    }

    /** A cuBLASLt handle, destroyed when the returned handle closes. */
    public static OwnedHandle create() {
        MemorySegment h = create("cublasLtCreate", cublaslt_h::cublasLtCreate);
        return Handles.own(
                h, 0, "cuBLASLt handle", p -> CublasStatus.check("cublasLtDestroy", cublaslt_h.cublasLtDestroy(p)));
    }

    /** A matmul descriptor, destroyed when the returned handle closes. */
    public static OwnedHandle matmulDescriptor(int computeType, int scaleType) {
        MemorySegment d =
                create("cublasLtMatmulDescCreate", p -> cublaslt_h.cublasLtMatmulDescCreate(p, computeType, scaleType));
        return Handles.own(
                d,
                0,
                MATMUL,
                p -> CublasStatus.check("cublasLtMatmulDescDestroy", cublaslt_h.cublasLtMatmulDescDestroy(p)));
    }

    /** A transposed ({@code CUBLAS_OP_T}), B as it is ({@code CUBLAS_OP_N}): the TN layouts {@code MatrixLayouts} gives. */
    public static void setTransposes(MemorySegment desc) {
        setDescriptorInt(desc, cublaslt_h.CUBLASLT_MATMUL_DESC_TRANSA(), cublaslt_h.CUBLAS_OP_T());
        setDescriptorInt(desc, cublaslt_h.CUBLASLT_MATMUL_DESC_TRANSB(), cublaslt_h.CUBLAS_OP_N());
    }

    /** FP8 fast accumulation; the attribute is declared {@code int8_t} in cublasLt.h, so the size passed must be 1. */
    public static void setFastAccumulation(MemorySegment desc) {
        try (Arena a = Arena.ofConfined()) {
            CublasStatus.check(
                    "cublasLtMatmulDescSetAttribute",
                    cublaslt_h.cublasLtMatmulDescSetAttribute(
                            desc,
                            cublaslt_h.CUBLASLT_MATMUL_DESC_FAST_ACCUM(),
                            a.allocateFrom(ValueLayout.JAVA_BYTE, (byte) 1),
                            Byte.BYTES));
        }
    }

    /** The {@code cublasLtMatmulMatrixScale_t} of A and B, for block-scaled formats. */
    public static void setBlockScaleModes(MemorySegment desc, int mode) {
        setDescriptorInt(desc, cublaslt_h.CUBLASLT_MATMUL_DESC_A_SCALE_MODE(), mode);
        setDescriptorInt(desc, cublaslt_h.CUBLASLT_MATMUL_DESC_B_SCALE_MODE(), mode);
    }

    /** Points {@code operand}'s per-tensor scale at a device FP32. */
    public static void setScalePointer(MemorySegment desc, ScalePointer operand, MemorySegment devicePointer) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(ValueLayout.ADDRESS);
            p.set(ValueLayout.ADDRESS, 0, devicePointer);
            CublasStatus.check(
                    "cublasLtMatmulDescSetAttribute",
                    cublaslt_h.cublasLtMatmulDescSetAttribute(
                            desc, operand.attribute(), p, ValueLayout.ADDRESS.byteSize()));
        }
    }

    /** A column-major matrix layout of {@code cudaDataType} {@code type}, destroyed when the returned handle closes. */
    public static OwnedHandle matrixLayout(int type, long rows, long cols, long ld) {
        MemorySegment l = create(
                "cublasLtMatrixLayoutCreate", p -> cublaslt_h.cublasLtMatrixLayoutCreate(p, type, rows, cols, ld));
        return Handles.own(
                l,
                0,
                MATMUL,
                p -> CublasStatus.check("cublasLtMatrixLayoutDestroy", cublaslt_h.cublasLtMatrixLayoutDestroy(p)));
    }

    /** Room for {@code count} heuristic results, in {@code arena}. */
    public static MemorySegment heuristicResults(int count, Arena arena) {
        return cublasLtMatmulHeuristicResult_t.allocateArray(count, arena);
    }

    /** The algorithm of the {@code index}-th heuristic result. */
    public static MemorySegment algorithm(MemorySegment results, int index) {
        return cublasLtMatmulHeuristicResult_t.algo(cublasLtMatmulHeuristicResult_t.asSlice(results, index));
    }

    /**
     * Asks the heuristic for up to {@code requested} algorithms that fit {@code workspaceBytes}, written to
     * {@code results}; returns how many it found.
     *
     * @param what the product, for the error when there is none, e.g. "BF16 -> BF16 gemm 64x128x256"
     * @throws CublasException {@code CUBLAS_STATUS_NOT_SUPPORTED} when the heuristic finds no algorithm
     */
    public static int heuristic(
            MemorySegment lt,
            MemorySegment desc,
            MemorySegment a,
            MemorySegment b,
            MemorySegment c,
            MemorySegment d,
            long workspaceBytes,
            int requested,
            MemorySegment results,
            String what) {
        MemorySegment raw = create("cublasLtMatmulPreferenceCreate", cublaslt_h::cublasLtMatmulPreferenceCreate);
        try (OwnedHandle pref = Handles.own(
                        raw,
                        0,
                        MATMUL,
                        p -> CublasStatus.check(
                                "cublasLtMatmulPreferenceDestroy", cublaslt_h.cublasLtMatmulPreferenceDestroy(p)));
                Arena arena = Arena.ofConfined()) {
            MemorySegment ws = arena.allocateFrom(ValueLayout.JAVA_LONG, workspaceBytes);
            CublasStatus.check(
                    "cublasLtMatmulPreferenceSetAttribute",
                    cublaslt_h.cublasLtMatmulPreferenceSetAttribute(
                            pref.get(), cublaslt_h.CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES(), ws, Long.BYTES));
            MemorySegment count = arena.allocate(ValueLayout.JAVA_INT);
            CublasStatus.check(
                    "cublasLtMatmulAlgoGetHeuristic",
                    cublaslt_h.cublasLtMatmulAlgoGetHeuristic(
                            lt, desc, a, b, c, d, pref.get(), requested, results, count));
            int n = count.get(ValueLayout.JAVA_INT, 0);
            if (n == 0) {
                throw CublasStatus.notSupported("cublasLtMatmulAlgoGetHeuristic", "no algorithm for " + what);
            }
            return n;
        }
    }

    /**
     * Enqueues {@code D = alpha · op(A) · op(B) + beta · C} on {@code stream}, with C and D in the same buffer
     * ({@code out}) but their own layouts.
     */
    public static void matmul(
            MemorySegment lt,
            MemorySegment desc,
            MemorySegment alpha,
            MemorySegment a,
            MemorySegment aLayout,
            MemorySegment b,
            MemorySegment bLayout,
            MemorySegment beta,
            MemorySegment out,
            MemorySegment cLayout,
            MemorySegment dLayout,
            MemorySegment algorithm,
            MemorySegment workspace,
            long workspaceBytes,
            MemorySegment stream) {
        int status = cublaslt_h.cublasLtMatmul(
                lt,
                desc,
                alpha,
                a,
                aLayout,
                b,
                bLayout,
                beta,
                out,
                cLayout,
                out,
                dLayout,
                algorithm,
                workspace,
                workspaceBytes,
                stream);
        CublasStatus.check("cublasLtMatmul", status);
    }

    private static void setDescriptorInt(MemorySegment desc, int attribute, int value) {
        try (Arena a = Arena.ofConfined()) {
            CublasStatus.check(
                    "cublasLtMatmulDescSetAttribute",
                    cublaslt_h.cublasLtMatmulDescSetAttribute(
                            desc, attribute, a.allocateFrom(ValueLayout.JAVA_INT, value), Integer.BYTES));
        }
    }

    /** Creates an opaque cuBLASLt object through a pointer out-parameter. */
    private static MemorySegment create(String function, ToIntFunction<MemorySegment> call) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment p = arena.allocate(ValueLayout.ADDRESS);
            CublasStatus.check(function, call.applyAsInt(p));
            return p.get(ValueLayout.ADDRESS, 0);
        }
    }
}
