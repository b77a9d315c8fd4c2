package dev.roofline.bindings.loader;

/**
 * A native library roofline loads, with the environment variable that overrides its location and the soname
 * searched otherwise.
 */
public enum NativeLibrary {
    CUDART("CUDA runtime", "ROOFLINE_CUDART", "libcudart.so.13"),
    CUBLASLT("cuBLASLt", "ROOFLINE_CUBLASLT", "libcublasLt.so.13"),
    /** The driver's management library (roofline-nvml); ships with the driver, not the toolkit. */
    NVML("NVML", "ROOFLINE_NVML", "libnvidia-ml.so.1");

    private final String displayName;
    private final String environmentVariable;
    private final String soname;

    NativeLibrary(String displayName, String environmentVariable, String soname) {
        this.displayName = displayName;
        this.environmentVariable = environmentVariable;
        this.soname = soname;
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
}
