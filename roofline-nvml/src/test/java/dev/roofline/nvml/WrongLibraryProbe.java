package dev.roofline.nvml;

/**
 * Run in a JVM of its own by {@link WrongLibraryTest}, with {@code ROOFLINE_NVML} pointing at a library that is not
 * NVML: prints what roofline-nvml's entry points say, twice, one line each.
 */
public final class WrongLibraryProbe {
    private WrongLibraryProbe() {}

    public static void main(String[] args) {
        for (int round = 1; round <= 2; round++) {
            System.out.println(
                    "reason=" + outcome(() -> NvmlMonitor.unavailableReason().orElse("")));
            System.out.println("open="
                    + outcome(() -> {
                        NvmlMonitor.open().close();
                        return "opened";
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
