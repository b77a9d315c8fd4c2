package dev.roofline.core.energy;

/** How a {@link PowerMeter} obtained the joules of an {@link EnergyReading}. */
public enum EnergySource {
    /** The difference of the GPU's cumulative hardware energy counter read at start and end. */
    COUNTER,
    /** The integral of power samples over the interval. */
    INTEGRATED,
    /** Neither a counter nor samples: the energy is 0 and unknown. */
    NONE
}
