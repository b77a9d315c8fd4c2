/**
 * jextract-generated FFM bindings for the CUDA 13.0 runtime, cuBLASLt and NVML, plus the one hand-written package
 * {@code dev.roofline.bindings.loader}: the native-library loader, the owned-handle helper and the status-name table
 * and exception base that roofline-cuda and roofline-nvml share. Symbols are resolved through
 * {@code SymbolLookup.loaderLookup()}, so the libraries are loaded ({@code System.load}) by the loader in this module
 * before the first downcall.
 *
 * <p>Every package is exported only to the module that uses it. Run with
 * {@code --enable-native-access=dev.roofline.bindings,...} (or {@code ALL-UNNAMED} on the class path).
 */
module dev.roofline.bindings {
    exports dev.roofline.bindings.cudart to
            dev.roofline.cuda;
    exports dev.roofline.bindings.cublaslt to
            dev.roofline.cuda;
    exports dev.roofline.bindings.nvml to
            dev.roofline.nvml;
    exports dev.roofline.bindings.loader to
            dev.roofline.cuda,
            dev.roofline.nvml;
}
