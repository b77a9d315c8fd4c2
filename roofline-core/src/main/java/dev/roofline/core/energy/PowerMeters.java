package dev.roofline.core.energy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Finds a {@link PowerMeter} with {@link ServiceLoader}: a module that {@code provides} it on the module path, or a
 * {@code META-INF/services/dev.roofline.core.energy.PowerMeter} entry on the class path (roofline-nvml has both).
 */
public final class PowerMeters {
    private static final int MAX_BROKEN_PROVIDERS = 16;
    private static final System.Logger LOG = System.getLogger(PowerMeters.class.getName());

    private PowerMeters() {}

    /** The meter visible to this module's class loader, if any (the first by name when there are several). */
    public static Optional<PowerMeter> installed() {
        return first(ServiceLoader.load(PowerMeter.class));
    }

    /** The meter visible to {@code loader}, if any. */
    public static Optional<PowerMeter> installed(ClassLoader loader) {
        return first(ServiceLoader.load(PowerMeter.class, loader));
    }

    /** Skips (and logs) providers that cannot be loaded or created, as the iterator allows. */
    private static Optional<PowerMeter> first(ServiceLoader<PowerMeter> loader) {
        List<PowerMeter> found = new ArrayList<>();
        Iterator<PowerMeter> it = loader.iterator();
        for (int errors = 0; errors < MAX_BROKEN_PROVIDERS; ) {
            try {
                if (!it.hasNext()) {
                    break;
                }
                found.add(it.next());
            } catch (ServiceConfigurationError e) {
                errors++;
                LOG.log(System.Logger.Level.WARNING, "a PowerMeter provider was skipped: " + e.getMessage());
            }
        }
        return found.stream().min(Comparator.comparing(PowerMeter::name));
    }
}
