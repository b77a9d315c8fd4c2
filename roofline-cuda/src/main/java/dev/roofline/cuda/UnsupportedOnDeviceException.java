package dev.roofline.cuda;

import dev.roofline.core.hardware.ComputeCapability;

/** A feature needs a newer GPU: names the feature, the compute capability it needs and the device's. */
public final class UnsupportedOnDeviceException extends UnsupportedOperationException {
    private final ComputeCapability required;
    private final ComputeCapability actual;

    public UnsupportedOnDeviceException(
            String feature, ComputeCapability required, String device, ComputeCapability actual) {
        super(feature + " needs compute capability >= " + required + "; " + device + " has " + actual);
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
