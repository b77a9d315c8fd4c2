/**
 * Idiomatic GPU access over the generated bindings: devices, memory, streams, events and graphs
 * ({@link dev.roofline.cuda}), cuBLASLt matrix products ({@link dev.roofline.cuda.blas}), roofline's GEMV kernels
 * ({@link dev.roofline.cuda.kernels}) and the benchmark harness that sets measurements beside roofline predictions
 * ({@link dev.roofline.cuda.bench}). The checked layer over the bindings, {@code dev.roofline.cuda.internal}, is not
 * exported: every native status becomes a {@link dev.roofline.cuda.CudaException} or
 * {@link dev.roofline.cuda.blas.CublasException} there.
 *
 * <p>Run with {@code --enable-native-access=dev.roofline.bindings,dev.roofline.cuda} (or {@code ALL-UNNAMED} on the
 * class path).
 */
module dev.roofline.cuda {
    requires transitive dev.roofline.core;
    // transitive: CudaException and CublasException extend dev.roofline.bindings.error.NativeCallException, which
    // users catch; the generated and loader packages stay exported only to this module and roofline-nvml
    requires transitive dev.roofline.bindings;
    // the decoder reads safetensors checkpoints with quant's reader (CheckpointWeights); no quant type is in its API
    requires dev.roofline.quant;

    exports dev.roofline.cuda;
    exports dev.roofline.cuda.blas;
    exports dev.roofline.cuda.bench;
    exports dev.roofline.cuda.kernels;
    exports dev.roofline.cuda.decode;
    exports dev.roofline.cuda.nccl;

    // the benchmarks measure energy with a meter another module provides (roofline-nvml), found at run time
    uses dev.roofline.core.energy.PowerMeter;

    provides dev.roofline.core.cli.Command with
            dev.roofline.cuda.cli.MeasureCommand,
            dev.roofline.cuda.cli.GemvBenchCommand,
            dev.roofline.cuda.cli.ValidateCommand,
            dev.roofline.cuda.cli.AttentionBenchCommand,
            dev.roofline.cuda.cli.DecodeCommand,
            dev.roofline.cuda.cli.NcclBenchCommand,
            dev.roofline.cuda.cli.TpDecodeCommand;
}
