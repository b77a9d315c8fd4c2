package dev.roofline.core.energy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;

import static org.assertj.core.api.Assertions.assertThat;

class PowerMetersTest {

    /**
     * A class-path jar as roofline-nvml's: its own (unnamed-module) copy of {@link FakePowerMeter}, listed in
     * META-INF/services under {@code dir} and seen alone (not other providers on the test's class path, such as
     * roofline-nvml's in the GPU bundle); every other class from the test's loader. (Surefire runs these tests inside
     * the dev.roofline.core module, where ServiceLoader ignores META-INF/services for the module's own classes.)
     */
    static final class ClassPathJar extends URLClassLoader {
        ClassPathJar(Path dir) throws IOException {
            super(new URL[] {dir.toUri().toURL()}, PowerMetersTest.class.getClassLoader());
        }

        @Override
        public Enumeration<URL> getResources(String name) throws IOException {
            return findResources(name);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith(FakePowerMeter.class.getName())) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    String file = name.substring(name.lastIndexOf('.') + 1) + ".class";
                    try (InputStream in = FakePowerMeter.class.getResourceAsStream(file)) {
                        byte[] b = in.readAllBytes();
                        c = defineClass(name, b, 0, b.length);
                    } catch (IOException | NullPointerException e) {
                        throw new ClassNotFoundException(name, e);
                    }
                }
                return c;
            }
        }
    }

    @Test
    void aMeterListedInMetaInfServicesOnTheClassPathIsFound(@TempDir Path dir) throws IOException {
        Path services = dir.resolve("META-INF/services/" + PowerMeter.class.getName());
        Files.createDirectories(services.getParent());
        Files.writeString(
                services, "# a provider, as roofline-nvml's jar lists it\n" + FakePowerMeter.class.getName() + "\n");
        try (URLClassLoader loader = new ClassPathJar(dir)) {
            PowerMeter m = PowerMeters.installed(loader).orElseThrow();
            assertThat(m.getClass().getName()).isEqualTo(FakePowerMeter.class.getName());
            assertThat(m.getClass().getClassLoader()).isSameAs(loader);
            assertThat(m.name()).isEqualTo("fake");
            assertThat(m.start("GPU-00000000-0000-0000-0000-000000000000")
                            .stop()
                            .averageWatts())
                    .isEqualTo(FakePowerMeter.WATTS);
        }
    }

    @Test
    void withoutAProviderThereIsNoMeter(@TempDir Path dir) throws IOException {
        try (URLClassLoader loader =
                new URLClassLoader(new URL[] {dir.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
            assertThat(PowerMeters.installed(loader)).isEmpty();
        }
    }

    @Test
    void aProviderThatCannotBeCreatedIsSkipped(@TempDir Path dir) throws IOException {
        Path services = dir.resolve("META-INF/services/" + PowerMeter.class.getName());
        Files.createDirectories(services.getParent());
        Files.writeString(services, "dev.roofline.core.energy.NoSuchMeter\n");
        try (URLClassLoader loader = new ClassPathJar(dir)) {
            assertThat(PowerMeters.installed(loader)).isEmpty();
        }
    }

    @Test
    void aSessionClosedTwiceKeepsItsFirstReading() {
        PowerMeter.Session s = new FakePowerMeter().start("GPU-00000000-0000-0000-0000-000000000000");
        EnergyReading first = s.stop();
        s.close();
        assertThat(s.stop()).isSameAs(first);
    }
}
