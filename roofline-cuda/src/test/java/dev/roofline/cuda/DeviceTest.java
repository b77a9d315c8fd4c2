package dev.roofline.cuda;

import dev.roofline.core.hardware.ComputeCapability;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.hardware.Source;
import dev.roofline.core.precision.Precision;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class DeviceTest {
    private static final ComputeCapability HOPPER = new ComputeCapability(9, 0);

    private static Device named(String name) {
        return new Device(0, name, HOPPER, 132, 80L << 30, 50L << 20, 1_980_000, 2_619_000, 5120);
    }

    @Test
    void h200NameMapsToTheRegistryEntry() {
        assertThat(named("NVIDIA H200").hardware()).isSameAs(Hardware.H200);
    }

    @Test
    void h100HbmNameMapsToSxm() {
        assertThat(named("NVIDIA H100 80GB HBM3").hardware()).isSameAs(Hardware.H100_SXM);
    }

    @Test
    void h100PcieNameMapsToPcie() {
        assertThat(named("NVIDIA H100 PCIe").hardware()).isSameAs(Hardware.H100_PCIE);
    }

    @Test
    void h200NvlIsNotTakenForTheSxmPart() {
        assertThat(named("NVIDIA H200 NVL").hardware()).isNotSameAs(Hardware.H200);
    }

    @Test
    void bandwidthIsDoubleDataRateTimesBusBytes() {
        // H100 SXM: 2619 MHz HBM3, 5120-bit bus: 2 * 2.619e9 * 640 B = 3.352 TB/s (datasheet: 3.35 TB/s)
        assertThat(named("x").memoryBytesPerSecond()).isCloseTo(3.35232e12, within(1e6));
    }

    @Test
    void unknownGpuIsBuiltFromWhatWasReported() {
        Hardware hw = named("NVIDIA Mystery 9000").hardware();
        assertThat(hw.name()).isEqualTo("NVIDIA Mystery 9000");
        assertThat(hw.memoryBytesPerSecond()).isCloseTo(3.35232e12, within(1e6));
        assertThat(hw.source(Hardware.Figure.MEMORY_BANDWIDTH).kind()).isEqualTo(Source.Kind.DERIVED);
        assertThat(hw.source(Hardware.Figure.MEMORY_BANDWIDTH).note()).contains("DDR");
        assertThat(hw.smCount()).isEqualTo(132);
        assertThat(hw.l2Bytes()).isEqualTo(50L << 20);
        assertThat(hw.computeCapability()).contains(HOPPER);
        // 132 SMs x 128 lanes x 2 FLOP x 1.98 GHz = 66.9 TFLOPS (H100 SXM datasheet: 67)
        assertThat(hw.ceiling(Precision.FP32).orElseThrow().flopsPerSecond()).isCloseTo(66.908e12, within(1e9));
        assertThat(hw.ceiling(Precision.FP32).orElseThrow().source().uncertain())
                .isTrue();
    }

    @Test
    void nonPositiveFiguresAreRefused() {
        assertThatThrownBy(() -> new Device(0, "x", HOPPER, 0, 1, 1, 1, 1, 1)).hasMessageContaining("sms=0");
    }
}
