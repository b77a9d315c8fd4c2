/**
 * Idiomatic GPU access over the generated bindings: library resolution ({@link dev.roofline.cuda.library}),
 * devices, memory, streams, events and graphs ({@link dev.roofline.cuda}), cuBLASLt matrix products
 * ({@link dev.roofline.cuda.blas}) and the benchmark harness that sets measurements beside roofline predictions
 * ({@link dev.roofline.cuda.bench}).
 *
 * <p>Run with {@code --enable-native-access=dev.roofline.bindings,dev.roofline.cuda} (or {@code ALL-UNNAMED} on the
 * class path).
 */
module dev.roofline.cuda {
    requires transitive dev.roofline.core;
    requires dev.roofline.bindings;

    exports dev.roofline.cuda;
    exports dev.roofline.cuda.library;
    exports dev.roofline.cuda.blas;
    exports dev.roofline.cuda.bench;
    exports dev.roofline.cuda.kernels;

    uses dev.roofline.cuda.bench.PowerMeter;
    provides dev.roofline.core.cli.Command with dev.roofline.cuda.cli.MeasureCommand;
}
