package dev.roofline.cuda.nccl;

import dev.roofline.bindings.loader.LibraryNotFoundException;
import dev.roofline.bindings.loader.NativeAccessDeniedException;
import dev.roofline.cuda.CudaUnavailableException;

import java.util.Optional;

/**
 * Entry point: is NCCL usable here, and which version. NCCL is not part of the CUDA toolkit: it is found by
 * {@code ROOFLINE_NCCL}, its soname {@code libnccl.so.2} on the usual paths, or where PyTorch's {@code nvidia-nccl-cu13}
 * wheel installs it.
 *
 * <pre>{@code
 * if (Nccl.isAvailable()) {
 *     System.out.println("NCCL " + Nccl.version());   // "NCCL 2.28.9"
 * }
 * }</pre>
 */
public final class Nccl {
    /** The oldest NCCL taken: 2.13, which added ncclGetLastError; every other function called is older. */
    static final int OLDEST = 21300;

    private Nccl() {}

    private static final class Probe {
        static final String REASON = probe();

        private static String probe() {
            try {
                java.nio.file.Path file = NcclCalls.load();
                int code = NcclCalls.version();
                if (code < OLDEST) {
                    return "NCCL " + (code < 20900 ? "before 2.9" : versionName(code)) + " at " + file
                            + " is older than 2.13, the first with every function the bindings call"
                            + " (ncclGetLastError); set ROOFLINE_NCCL to a newer libnccl.so.2";
                }
                return "";
            } catch (CudaUnavailableException | LibraryNotFoundException | NativeAccessDeniedException e) {
                return e.getMessage();
            } catch (NcclException e) {
                return "NCCL does not answer: " + e.getMessage();
            }
        }
    }

    /** True when CUDA and NCCL both load and NCCL reports a version of 2.13 or later. */
    public static boolean isAvailable() {
        return Probe.REASON.isEmpty();
    }

    /** Why NCCL is not usable (CUDA, the library, native access), empty when it is. */
    public static Optional<String> unavailableReason() {
        return Probe.REASON.isEmpty() ? Optional.empty() : Optional.of(Probe.REASON);
    }

    /** The loaded library's version, e.g. {@code "2.28.9"}. */
    public static String version() {
        NcclCalls.load();
        return versionName(NcclCalls.version());
    }

    /** {@code ncclGetVersion}'s code as major.minor.patch: {@code 22809} is 2.28.9 (codes of NCCL 2.9 and later). */
    static String versionName(int code) {
        if (code < 20900) {
            throw new IllegalArgumentException("NCCL version code " + code + " predates NCCL 2.9's numbering");
        }
        return code / 10000 + "." + code / 100 % 100 + "." + code % 100;
    }
}
