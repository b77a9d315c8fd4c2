package dev.roofline.nvml.bench;

import dev.roofline.nvml.NvmlDevice;
import dev.roofline.nvml.NvmlMonitor;
import dev.roofline.nvml.PowerSample;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;

/**
 * What one {@link dev.roofline.nvml.PowerTracker} sample costs on a real GPU: the three NVML reads of
 * {@link NvmlDevice#sample} (power, SM clock, clock-event reasons), and the power read alone. Needs a GPU and NVML.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class NvmlSampleBenchmark {
    private NvmlMonitor session;
    private NvmlDevice device;

    @Setup
    public void open() {
        session = NvmlMonitor.open();
        device = session.device(0);
    }

    @TearDown
    public void close() {
        session.close();
    }

    @Benchmark
    public PowerSample trackerSample() {
        return device.sample(System.nanoTime());
    }

    @Benchmark
    public OptionalDouble powerOnly() {
        return device.powerWatts();
    }
}
