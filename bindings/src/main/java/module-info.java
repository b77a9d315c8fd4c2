/**
 * jextract-generated FFM bindings for the CUDA 13.0 runtime, cuBLASLt and NVML.
 * Symbols are resolved through {@code SymbolLookup.loaderLookup()}: the consuming module must
 * {@code System.load} the native libraries before the first downcall.
 */
module dev.roofline.bindings {
    exports dev.roofline.bindings.cudart to dev.roofline.cuda;
    exports dev.roofline.bindings.cublaslt to dev.roofline.cuda;
    exports dev.roofline.bindings.nvml to dev.roofline.nvml;
}
