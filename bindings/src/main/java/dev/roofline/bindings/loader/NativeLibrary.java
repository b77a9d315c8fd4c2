package dev.roofline.bindings.loader;

/**
 * A native library roofline loads, with the environment variable that overrides its location, the soname searched
 * otherwise, the jextract include list its bindings were generated from, the module that calls it, and where a Python
 * wheel that ships it puts it inside {@code site-packages} (empty when no wheel is searched).
 */
public enum NativeLibrary {
    CUDART("CUDA runtime", "ROOFLINE_CUDART", "libcudart.so.13", "cudart.args", "dev.roofline.cuda", ""),
    CUBLASLT("cuBLASLt", "ROOFLINE_CUBLASLT", "libcublasLt.so.13", "cublaslt.args", "dev.roofline.cuda", ""),
    /** The driver's management library (roofline-nvml); ships with the driver, not the toolkit. */
    NVML("NVML", "ROOFLINE_NVML", "libnvidia-ml.so.1", "nvml.args", "dev.roofline.nvml", ""),
    /**
     * NCCL, the collectives library; not part of the toolkit. Besides the usual places it is found where PyTorch's
     * dependency {@code nvidia-nccl-cu13} installs it.
     */
    NCCL("NCCL", "ROOFLINE_NCCL", "libnccl.so.2", "nccl.args", "dev.roofline.cuda", "nvidia/nccl/lib");

    private final String displayName;
    private final String environmentVariable;
    private final String soname;
    private final String includeList;
    private final String callerModule;
    private final String wheelDirectory;

    NativeLibrary(
            String displayName,
            String environmentVariable,
            String soname,
            String includeList,
            String callerModule,
            String wheelDirectory) {
        this.displayName = displayName;
        this.environmentVariable = environmentVariable;
        this.soname = soname;
        this.includeList = includeList;
        this.callerModule = callerModule;
        this.wheelDirectory = wheelDirectory;
    }

    public String displayName() {
        return displayName;
    }

    /** Holds an absolute path to the library file; when set, it is the only place tried. */
    public String environmentVariable() {
        return environmentVariable;
    }

    public String soname() {
        return soname;
    }

    /** The file name of the jextract include list in {@code bindings/jextract/}, bundled beside this class. */
    String includeList() {
        return includeList;
    }

    /** The wheel's folder for this library relative to {@code site-packages}, e.g. {@code nvidia/nccl/lib}; or "". */
    public String wheelDirectory() {
        return wheelDirectory;
    }

    /** The roofline module that calls this library, e.g. {@code dev.roofline.nvml}. */
    public String callerModule() {
        return callerModule;
    }

    /**
     * The JVM option that lets this module load the library and its caller make downcalls, e.g.
     * {@code --enable-native-access=dev.roofline.bindings,dev.roofline.nvml}: the one place the flag is spelled.
     */
    public String nativeAccessFlag() {
        return "--enable-native-access=dev.roofline.bindings," + callerModule;
    }
}
