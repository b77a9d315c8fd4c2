package dev.roofline.cuda.bench;

import dev.roofline.core.energy.OperationEnergy;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.core.roofline.Roofline;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ReportTest {
    private static final Gemm BF16 = Sweep.gemmFor(Gemm.of(8192, 8192, 8192), Precision.BF16);
    private static final GemmVariant FP8_FAST = new GemmVariant(Precision.FP8_E4M3, true);
    private static final Gemm FP8 = Sweep.gemmFor(Gemm.of(8192, 8192, 8192), Precision.FP8_E4M3);

    private static List<BenchmarkResult> rows() {
        Roofline r = Roofline.on(Hardware.H200);
        Measurement plain = new Measurement("BF16 -> BF16", BF16, TimingStats.of(1600, 1610, 1590), r.predict(BF16))
                .withDatasheet(r.predict(BF16));
        Measurement metered = plain.withEnergy(new OperationEnergy("NVML", MeasurementEnergyTest.READING, 250, 0.40));
        return List.of(
                plain, metered, new BenchmarkFailure(FP8_FAST.label(FP8), FP8, "CublasException: no algorithm, sorry"));
    }

    /** Splits one CSV line, honouring quotes. */
    private static List<String> cells(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                out.add(cell.toString());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        out.add(cell.toString());
        return out;
    }

    @Test
    void everyCsvRowHasTheHeadersColumns() {
        String[] lines = Report.csv(rows()).split("\n");
        int columns = cells(lines[0]).size();
        assertThat(columns).isEqualTo(32);
        for (String line : lines) {
            assertThat(cells(line)).as(line).hasSize(columns);
        }
    }

    @Test
    void energyColumnsAreFilledOnlyWhenAMeterMeasured() {
        String[] lines = Report.csv(rows()).split("\n");
        List<String> header = cells(lines[0]);
        int jPerOp = header.indexOf("joules_per_op");
        int perWatt = header.indexOf("gflops_per_watt");
        int throttled = header.indexOf("throttled");
        assertThat(cells(lines[1]).subList(jPerOp, header.size())).containsOnly("");
        List<String> metered = cells(lines[2]);
        assertThat(Double.parseDouble(metered.get(jPerOp))).isEqualTo(1.2); // 300 J / 250 launches
        assertThat(metered.get(perWatt)).isEqualTo("916.26"); // 2 x 8192^3 x 250 / 300 / 1e9
        assertThat(metered.get(throttled)).isEqualTo("true");
        assertThat(metered.get(header.indexOf("clock_event_reasons"))).isEqualTo("SW_POWER_CAP");
        assertThat(metered.get(header.indexOf("energy_launches"))).isEqualTo("250");
        List<String> failed = cells(lines[3]);
        assertThat(failed.get(0)).isEqualTo("FP8 E4M3 -> FP16 fast accum");
        assertThat(failed.get(header.indexOf("failure"))).isEqualTo("CublasException: no algorithm, sorry");
        assertThat(failed.subList(jPerOp, header.size())).containsOnly("");
    }

    @Test
    void theTableShowsMillijoulesAndGflopsPerWattAndWhyItThrottled() {
        String table = Report.table(rows());
        String[] lines = table.split("\n");
        assertThat(lines[0]).contains("mJ/op", "GFLOPS/W", "avg W", "peak W", "throttled");
        assertThat(lines[1]).doesNotContain("1200.000");
        assertThat(lines[2]).contains("1200.000", "916.3", "714", "731", "yes SW_POWER_CAP");
        assertThat(lines[3]).contains("FP8 E4M3 -> FP16 fast accum", "failed: CublasException");
        assertThat(table).contains("GFLOPS/W = FLOPs x launches / joules / 1e9");
    }
}
