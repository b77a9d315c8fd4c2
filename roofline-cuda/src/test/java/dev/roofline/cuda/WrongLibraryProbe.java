package dev.roofline.cuda;

import dev.roofline.cuda.internal.CublasLtCalls;

/**
 * Run in a JVM of its own by {@link WrongLibraryTest}, with {@code ROOFLINE_CUDART} and {@code ROOFLINE_CUBLASLT}
 * pointing at a library that is neither: prints what roofline-cuda's entry points say, twice, one line each.
 */
public final class WrongLibraryProbe {
    private WrongLibraryProbe() {}

    public static void main(String[] args) {
        for (int round = 1; round <= 2; round++) {
            System.out.println("available=" + outcome(() -> String.valueOf(Cuda.isAvailable())));
            System.out.println(
                    "reason=" + outcome(() -> Cuda.unavailableReason().orElse("")));
            System.out.println("deviceCount=" + outcome(() -> String.valueOf(Cuda.deviceCount())));
            System.out.println("cublasLt="
                    + outcome(() -> {
                        CublasLtCalls.load();
                        return "loaded";
                    }));
        }
    }

    /** The value, or the throwable's class and message: an Error is printed, not propagated. */
    private static String outcome(java.util.function.Supplier<String> call) {
        try {
            return call.get();
        } catch (Throwable t) {
            return t.getClass().getSimpleName() + ": " + t.getMessage();
        }
    }
}
