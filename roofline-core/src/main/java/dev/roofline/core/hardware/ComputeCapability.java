package dev.roofline.core.hardware;

/** CUDA compute capability, e.g. 9.0 for Hopper, 12.1 for GB10. */
public record ComputeCapability(int major, int minor) implements Comparable<ComputeCapability> {

    public ComputeCapability {
        if (major < 1 || minor < 0 || minor > 9) {
            throw new IllegalArgumentException(
                    "compute capability must be major >= 1 and minor in 0..9, got " + major + "." + minor);
        }
    }

    /** Parses "9.0", "12.1" or "sm_121". */
    public static ComputeCapability parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("compute capability must not be null");
        }
        String t = text.strip();
        try {
            if (t.startsWith("sm_")) {
                String digits = t.substring(3).replaceAll("[af]$", "");
                int v = Integer.parseInt(digits);
                return new ComputeCapability(v / 10, v % 10);
            }
            int dot = t.indexOf('.');
            if (dot > 0) {
                return new ComputeCapability(
                        Integer.parseInt(t.substring(0, dot)), Integer.parseInt(t.substring(dot + 1)));
            }
        } catch (NumberFormatException e) {
            // fall through to the error below
        }
        throw new IllegalArgumentException("compute capability must look like '9.0' or 'sm_90', got '" + text + "'");
    }

    public boolean atLeast(int major, int minor) {
        return compareTo(new ComputeCapability(major, minor)) >= 0;
    }

    @Override
    public int compareTo(ComputeCapability o) {
        return major != o.major ? Integer.compare(major, o.major) : Integer.compare(minor, o.minor);
    }

    @Override
    public String toString() {
        return major + "." + minor;
    }
}
