package dev.roofline.cuda;

import dev.roofline.core.hardware.Hardware;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/** Device names as the driver reports them, mapped to registry entries. First match wins; order matters. */
final class KnownGpus {
    private record Entry(Pattern name, Hardware hardware) {}

    private static final List<Entry> ENTRIES = List.of(
            entry("NVIDIA H200( SXM.*)?", Hardware.H200),
            entry("NVIDIA H100 PCIe", Hardware.H100_PCIE),
            entry("NVIDIA H100 80GB HBM3|NVIDIA H100 SXM.*|NVIDIA H100", Hardware.H100_SXM),
            entry("NVIDIA GB200", Hardware.GB200),
            entry("NVIDIA B200", Hardware.B200),
            entry("NVIDIA GB10", Hardware.GB10),
            entry("NVIDIA A100-SXM4-80GB|NVIDIA A100 80GB SXM.*", Hardware.A100_SXM_80GB));

    private KnownGpus() {}

    private static Entry entry(String regex, Hardware hw) {
        return new Entry(Pattern.compile(regex, Pattern.CASE_INSENSITIVE), hw);
    }

    static Optional<Hardware> match(String deviceName) {
        String n = deviceName.strip();
        return ENTRIES.stream()
                .filter(e -> e.name.matcher(n).matches())
                .map(Entry::hardware)
                .findFirst();
    }
}
