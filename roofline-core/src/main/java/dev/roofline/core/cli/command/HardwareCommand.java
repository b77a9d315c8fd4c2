package dev.roofline.core.cli.command;

import dev.roofline.core.cli.Arguments;
import dev.roofline.core.cli.Command;
import dev.roofline.core.cli.Option;
import dev.roofline.core.hardware.Ceiling;
import dev.roofline.core.hardware.Hardware;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/** {@code roofline hardware}: the hardware registry, every figure with its source. */
public final class HardwareCommand implements Command {
    /** Memory capacities are binary, as the datasheets' "GB" of memory means ({@code Datasheets}). */
    static final double GIB = 1L << 30;

    @Override
    public String name() {
        return "hardware";
    }

    @Override
    public String summary() {
        return "the hardware registry: bandwidth, memory, SMs, L2, peaks, each figure with its source";
    }

    @Override
    public List<Option<?>> options() {
        return List.of();
    }

    @Override
    public void run(Arguments args, PrintStream out, PrintStream err) {
        StringBuilder sb = new StringBuilder();
        for (Hardware h : Hardware.registry()) {
            sb.append(String.format(
                    Locale.ROOT,
                    "%s%s: %.0f GB/s, %.0f GiB, %d SMs, L2 %.1f MiB, CC %s, %.0f W%n",
                    h.name(),
                    h.aliases().isEmpty() ? "" : " (" + String.join(", ", h.aliases()) + ")",
                    h.memoryBytesPerSecond() / 1e9,
                    h.memoryBytes() / GIB,
                    h.smCount(),
                    h.l2Bytes() / (double) (1 << 20),
                    h.computeCapability().map(Object::toString).orElse("?"),
                    h.powerWatts()));
            for (Hardware.Figure f : Hardware.Figure.values()) {
                if (f != Hardware.Figure.KERNEL_LATENCY) { // measured only, never in a datasheet
                    sb.append("    ")
                            .append(f.name().toLowerCase(Locale.ROOT))
                            .append(": ")
                            .append(h.source(f))
                            .append('\n');
                }
            }
            for (Ceiling c : h.dense().values()) {
                sb.append(String.format(
                        Locale.ROOT,
                        "    %-11s %9.1f TFLOPS dense (%s)  %s%n",
                        c.precision().displayName(),
                        c.teraFlopsPerSecond(),
                        c.unit() == Ceiling.Unit.TENSOR_CORE ? "tensor" : "CUDA cores",
                        c.source()));
            }
        }
        out.print(sb);
    }
}
