/**
 * jextract-generated FFM bindings for the CUDA 13.0 runtime, cuBLASLt, NVML and NCCL 2.28, plus two hand-written packages: the
 * native-library loader {@code dev.roofline.bindings.loader} (locating and loading each library, checking it defines
 * the functions the bindings call, the owned-handle helper and the status-name table), shared by roofline-cuda and
 * roofline-nvml, and {@link dev.roofline.bindings.error}, the base of every native-call exception those modules throw.
 * Symbols are resolved through {@code SymbolLookup.loaderLookup()}, so the libraries are loaded ({@code System.load})
 * by the loader in this module before the first downcall.
 *
 * <p>{@code dev.roofline.bindings.error} is exported to every module, so users can catch
 * {@link dev.roofline.bindings.error.NativeCallException}; every other package is exported only to the module that
 * uses it. Run with {@code --enable-native-access=dev.roofline.bindings,...} (or {@code ALL-UNNAMED} on the class
 * path).
 */
module dev.roofline.bindings {
    exports dev.roofline.bindings.error;
    exports dev.roofline.bindings.cudart to
            dev.roofline.cuda;
    exports dev.roofline.bindings.cublaslt to
            dev.roofline.cuda;
    exports dev.roofline.bindings.nvml to
            dev.roofline.nvml;
    exports dev.roofline.bindings.nccl to
            dev.roofline.cuda;
    exports dev.roofline.bindings.loader to
            dev.roofline.cuda,
            dev.roofline.nvml;
}
