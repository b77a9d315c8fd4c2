package dev.roofline.core.energy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * A meter that draws a constant {@link #WATTS} and remembers the UUIDs it was started with. Public with a public
 * constructor, so {@link java.util.ServiceLoader} can create it.
 */
public final class FakePowerMeter implements PowerMeter {
    public static final double WATTS = 500;
    static final List<String> STARTED = Collections.synchronizedList(new ArrayList<>());

    public FakePowerMeter() {}

    @Override
    public String name() {
        return "fake";
    }

    @Override
    public Session start(String gpuUuid) {
        STARTED.add(gpuUuid);
        long t0 = System.nanoTime();
        return new Session() {
            private EnergyReading reading;

            @Override
            public synchronized EnergyReading stop() {
                if (reading == null) {
                    double s = (System.nanoTime() - t0) / 1e9;
                    reading = new EnergyReading(s, WATTS * s, WATTS, WATTS, EnergySource.INTEGRATED, 1, 1980, Set.of());
                }
                return reading;
            }
        };
    }
}
