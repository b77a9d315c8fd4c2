package dev.roofline.cuda;

import dev.roofline.core.hardware.ComputeCapability;

/** A feature needs a newer GPU: names the feature, the compute capability it needs and the device's. */
public final class UnsupportedOnDeviceException extends UnsupportedOperationException {
    private final ComputeCapability required;
    private final ComputeCapability actual;

    public UnsupportedOnDeviceException(
            String feature, ComputeCapability required, String device, ComputeCapability actual) {
        this(feature + " needs compute capability >= " + required + "; " + device + " has " + actual, required, actual);
    }

    /**
     * A feature only some compute capabilities have, e.g. one major version: {@code needs} says which ("compute
     * capability 12.x (sm_120a, sm_121a)"), {@code required} is the lowest of them.
     */
    public UnsupportedOnDeviceException(
            String feature, String needs, ComputeCapability required, String device, ComputeCapability actual) {
        this(feature + " needs " + needs + "; " + device + " has " + actual, required, actual);
    }

    private UnsupportedOnDeviceException(String message, ComputeCapability required, ComputeCapability actual) {
        super(message);
        this.required = required;
        this.actual = actual;
    }

    public ComputeCapability required() {
        return required;
    }

    public ComputeCapability actual() {
        return actual;
    }
}
