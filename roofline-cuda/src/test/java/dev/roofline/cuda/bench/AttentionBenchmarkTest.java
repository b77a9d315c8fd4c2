package dev.roofline.cuda.bench;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Attention;
import dev.roofline.core.roofline.Roofline;
import dev.roofline.cuda.kernels.KvCacheFormat;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The attention report from a hand-made measurement: KV bytes per second and the share of the copy bandwidth. */
class AttentionBenchmarkTest {

    @Test
    void theReportStatesTheCopyBandwidthAndEachRowsShareOfIt() {
        DeviceCeilings ceilings = new DeviceCeilings(
                "NVIDIA H200", LocalDate.of(2026, 11, 24), 4e12, 2e-6, "line through copies", Map.of(), "", Map.of());
        // batch 1, 8 KV heads of 4 query heads, 8192 tokens of 128: K and V are 2 x 8 x 8192 x 128 x 2 B = 33,554,432 B
        Attention op = Attention.of("attention", 8, 4, 8192, 128, 128, Precision.FP16, Precision.FP16);
        long kvBytes = 33_554_432L;
        Measurement m = new Measurement(
                        "B=1 context=8192",
                        op,
                        TimingStats.of(10.0),
                        Roofline.on(Hardware.H200).predict(op))
                .withCopy(new CopyReference(kvBytes, 4e12, TimingStats.of(9.0)).withRead(TimingStats.of(8.5)));
        String text =
                new AttentionBenchmark.Results("NVIDIA H200 (sm_90)", ceilings, List.of(m)).render(ReportFormat.TEXT);
        assertThat(text)
                .startsWith(
                        "device: NVIDIA H200 (sm_90)\ncopy bandwidth (read + write): 4000 GB/s, kernel latency 2.00 us")
                .contains("B=1 context=8192")
                // 33,554,432 B in 10 us = 3355 GB/s, 83.9 % of 4000 GB/s; 10 / 9 = 1.11x the same-bytes copy
                .contains("3355")
                .contains("83.9%")
                .contains("1.11x")
                // one kernel reading the bytes in 8.5 us: 33,554,432 B / 8.5 us = 3948 GB/s, 98.7 % of the copy's;
                // 10 / 8.5 = 1.18x that read
                .contains("98.7%")
                .contains("1.18x");
        String csv = new AttentionBenchmark.Results("x", ceilings, List.of(m)).render(ReportFormat.CSV);
        assertThat(csv.lines().findFirst().orElseThrow())
                .isEqualTo("label,median_us,kv_gbps,pct_of_copy,roofline_us,error_pct,same_bytes_copy_us,vs_copy,"
                        + "same_bytes_read_us,read_pct_of_copy,vs_read");
    }

    @Test
    void theRooflinePricesTheKeysAndValuesInTheCachesPrecisionAndTheQueriesInFp16() {
        // batch 1, 32 heads on 8 KV heads of 128, 8192 tokens; per KV head: q and out 4 x 128 x 2 B each,
        // K and V 8192 x 128 x (2 B, or 1 B for FP8)
        assertThat(AttentionBenchmark.operator(KvCacheFormat.FP16, 1, 8192, 32, 8, 128)
                        .bytes())
                .isEqualTo(8L * (2 * 1024 + 2 * 2_097_152))
                .isEqualTo(33_570_816L);
        assertThat(AttentionBenchmark.operator(KvCacheFormat.of(Precision.FP8_E4M3), 1, 8192, 32, 8, 128)
                        .bytes())
                .isEqualTo(8L * (2 * 1024 + 2 * 1_048_576))
                .isEqualTo(16_793_600L);
        // batch 4 of the same: four times the KV heads
        assertThat(AttentionBenchmark.operator(KvCacheFormat.BF16, 4, 8192, 32, 8, 128)
                        .bytes())
                .isEqualTo(4 * 33_570_816L);
    }
}
