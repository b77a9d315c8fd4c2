package dev.roofline.core.calibration;

import dev.roofline.core.parallel.Collective;
import dev.roofline.core.parallel.CollectiveFit;
import dev.roofline.core.precision.Precision;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import static dev.roofline.core.calibration.CalibratedPredictionTest.CALIBRATION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CalibrationJsonTest {

    static final String TEXT = """
            {
              "device": "Test GPU",
              "date": "2026-11-24",
              "source": "by hand",
              "copyBytesPerSecond": 1.0E12,
              "launchSeconds": 2.0E-6,
              "kernelsPerLayer": 10,
              "kernelsPerModel": 2,
              "efficiencies": {
                "elementwise": 0.5,
                "gemv FP16": 0.8
              },
              "fixedSeconds": {}
            }
            """;

    /** {@link #TEXT} with fixed times for two classes, keys out of order. */
    static final String FIXED = TEXT.replace("\"fixedSeconds\": {}", """
            "fixedSeconds": {
                "gemv FP16": 0,
                "attention": 6.1E-6
              }""");

    @Test
    void writesOneFieldALineEfficienciesByKey() {
        assertThat(CALIBRATION.toJson()).isEqualTo(TEXT);
    }

    @Test
    void gemvClassesMeasuredAtGivenRowsRoundTrip() {
        String text = TEXT.replace("\"gemv FP16\": 0.8", """
                "gemv FP16": 0.8,
                    "gemv FP16 m8": 0.7,
                    "gemv FP16 m16": 0.6""");
        Calibration c = Calibration.parse(text);
        assertThat(c.efficiency(new OperatorClass.Gemv(Precision.FP16, 8))).isEqualTo(0.7);
        assertThat(c.efficiency(new OperatorClass.Gemv(Precision.FP16, 16))).isEqualTo(0.6);
        // written in key order ("m16" before "m8") and read back to the same calibration
        assertThat(c.toJson()).contains("""
                    "gemv FP16": 0.8,
                    "gemv FP16 m16": 0.6,
                    "gemv FP16 m8": 0.7
                """);
        assertThat(Calibration.parse(c.toJson())).isEqualTo(c);
        assertThatThrownBy(() -> Calibration.parse(text.replace("m16", "m016")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rows must be 1..32 without leading zeros, got 016");
    }

    @Test
    void attentionClassesMeasuredAtGivenHeadsRoundTripWithTheirFixedTimes() {
        String text = FIXED.replace("\"gemv FP16\": 0.8", """
                "gemv FP16": 0.8,
                    "attention h256": 0.9""")
                .replace("\"attention\": 6.1E-6", "\"attention\": 6.1E-6,\n    \"attention h256\": 2.5E-6");
        Calibration c = Calibration.parse(text);
        assertThat(c.efficiency(new OperatorClass.Attention(256))).isEqualTo(0.9);
        assertThat(c.fixedSecondsOf(new OperatorClass.Attention(256))).isEqualTo(2.5e-6);
        assertThat(Calibration.parse(c.toJson())).isEqualTo(c);
        assertThatThrownBy(() -> Calibration.parse(text.replace("h256", "h0256")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("heads must be 1..65536 without leading zeros, got 0256");
    }

    @Test
    void writesFixedTimesByKeyAfterTheEfficiencies() {
        Calibration c = Calibration.parse(FIXED);
        assertThat(c.toJson()).isEqualTo(TEXT.replace("\"fixedSeconds\": {}", """
                        "fixedSeconds": {
                            "attention": 6.1E-6,
                            "gemv FP16": 0.0
                          }"""));
        assertThat(c.fixedSecondsOf(OperatorClass.ATTENTION)).isEqualTo(6.1e-6);
        assertThat(c.fixedSecondsOf(new OperatorClass.Gemv(Precision.FP16))).isZero();
        assertThat(c.fixedSecondsOf(OperatorClass.ELEMENTWISE)).isZero();
        assertThat(c.efficiencies()).isEqualTo(CALIBRATION.efficiencies());
    }

    @Test
    void aFileWrittenBeforeFixedTimesIsReadAsHavingNone(@TempDir Path dir) throws IOException {
        // the file format as it was before fixedSeconds: efficiencies are the last field
        String before = TEXT.replace("  },\n  \"fixedSeconds\": {}\n", "  }\n");
        assertThat(before).doesNotContain("fixedSeconds").endsWith("\"gemv FP16\": 0.8\n  }\n}\n");
        Path file = dir.resolve("before.json");
        Files.writeString(file, before);
        Calibration c = Calibration.read(file);
        assertThat(c).isEqualTo(CALIBRATION);
        assertThat(c.fixedSeconds()).isEmpty();
        assertThat(c.fixedSecondsOf(OperatorClass.ATTENTION)).isZero();
    }

    @Test
    void readsBackWhatItWrites(@TempDir Path dir) {
        Calibration c = new Calibration(
                new Calibration.Provenance("NVIDIA H200", LocalDate.of(2026, 11, 24), "a \"quoted\" command\\n"),
                4.291e12,
                1.71e-6,
                10,
                2,
                Map.of(
                        new OperatorClass.Gemv(Precision.NVFP4),
                        0.63,
                        new OperatorClass.GroupedGemm(Precision.FP8_E4M3),
                        1.2,
                        OperatorClass.ATTENTION,
                        0.369),
                Map.of(OperatorClass.ATTENTION, 6.1e-6, OperatorClass.ELEMENTWISE, 1.5e-7));
        assertThat(c.toJson())
                .contains("\"fixedSeconds\": {\n    \"attention\": 6.1E-6,\n    \"elementwise\": 1.5E-7\n  }");
        assertThat(Calibration.parse(c.toJson())).isEqualTo(c);
        Path file = dir.resolve("h200.json");
        c.write(file);
        assertThat(Calibration.read(file)).isEqualTo(c);
        assertThat(Calibration.parse(CalibrationJsonTest.TEXT)).isEqualTo(CALIBRATION);
    }

    @Test
    void collectivesAreWrittenAfterTheFixedTimesAndReadBack() {
        Calibration c = CALIBRATION.withCollectives(List.of(
                new CollectiveFit(Collective.Op.ALL_REDUCE, 2, 2.1e-5, 3.3e11),
                new CollectiveFit(Collective.Op.ALL_GATHER, 8, 1.5e-5, 2.5e11)));
        assertThat(c.toJson())
                .endsWith("  \"fixedSeconds\": {},\n  \"collectives\": [\n"
                        + "    {\"op\": \"ALL_REDUCE\", \"ranks\": 2, \"latencySeconds\": 2.1E-5,"
                        + " \"busBytesPerSecond\": 3.3E11},\n"
                        + "    {\"op\": \"ALL_GATHER\", \"ranks\": 8, \"latencySeconds\": 1.5E-5,"
                        + " \"busBytesPerSecond\": 2.5E11}\n  ]\n}\n");
        Calibration back = Calibration.parse(c.toJson());
        assertThat(back).isEqualTo(c);
        assertThat(back.collective(Collective.Op.ALL_GATHER, 8).orElseThrow().seconds(1 << 20))
                .isEqualTo(1.5e-5 + 7.0 / 8 * (1 << 20) / 2.5e11);
        assertThat(back.collective(Collective.Op.ALL_GATHER, 2)).isEmpty();
        assertThat(CALIBRATION.toJson()).doesNotContain("collectives");
        assertThat(Calibration.parse(CALIBRATION.toJson()).collectives()).isEmpty();
    }

    @Test
    void aFitSaysHowItsCallsWereLaunchedAndOlderFilesReadAsUnrecorded() {
        Calibration c =
                CALIBRATION.withCollectives(List.of(new CollectiveFit(Collective.Op.ALL_REDUCE, 2, 7.12e-6, 2.734e11)
                        .withLaunch(CollectiveFit.Launch.GRAPH)));
        assertThat(c.toJson())
                .contains("{\"op\": \"ALL_REDUCE\", \"ranks\": 2, \"latencySeconds\": 7.12E-6,"
                        + " \"busBytesPerSecond\": 2.734E11, \"launch\": \"GRAPH\"}");
        assertThat(Calibration.parse(c.toJson()).collectives().getFirst().launch())
                .isEqualTo(CollectiveFit.Launch.GRAPH);
        // a file written before fits recorded it has no "launch": read, and said to be unrecorded
        String old = TEXT.replace(
                "  \"fixedSeconds\": {}\n",
                "  \"fixedSeconds\": {},\n  \"collectives\": [{\"op\": \"ALL_REDUCE\", \"ranks\": 2,"
                        + " \"latencySeconds\": 2e-5, \"busBytesPerSecond\": 3e11}]\n");
        assertThat(Calibration.parse(old).collectives().getFirst().launch()).isEqualTo(CollectiveFit.Launch.UNRECORDED);
        assertThat(refusal(old.replace("3e11}", "3e11, \"launch\": \"UNRECORDED\"}")))
                .contains("[0]: field \"launch\" must be \"GRAPH\" or \"EAGER\", got \"UNRECORDED\"");
    }

    @Test
    void launchPlansAreWrittenLastAndReadBackInTheirOrder() {
        Calibration c = CALIBRATION.withPlans(List.of(
                new LaunchPlan(Precision.FP16, 1, false, 7, 2), new LaunchPlan(null, Integer.MAX_VALUE, true, 13, 2)));
        assertThat(c.toJson())
                .endsWith("  \"fixedSeconds\": {},\n  \"plans\": [\n"
                        + "    {\"weights\": \"FP16\", \"maxBatch\": 1, \"experts\": false, \"kernelsPerLayer\": 7,"
                        + " \"kernelsPerModel\": 2},\n"
                        + "    {\"weights\": \"any\", \"maxBatch\": 2147483647, \"experts\": true,"
                        + " \"kernelsPerLayer\": 13, \"kernelsPerModel\": 2}\n  ]\n}\n");
        assertThat(Calibration.parse(c.toJson())).isEqualTo(c);
        assertThat(CALIBRATION.toJson()).doesNotContain("plans");
        assertThat(Calibration.parse(CALIBRATION.toJson()).plans()).isEmpty();
    }

    @Test
    void aBadLaunchPlanIsRefusedWithItsIndexAndField() {
        String one = "  \"fixedSeconds\": {},\n  \"plans\": [{\"weights\": \"FP16\", \"maxBatch\": 1,"
                + " \"experts\": false, \"kernelsPerLayer\": 7, \"kernelsPerModel\": 2}, %s]\n";
        String base = TEXT.replace("  \"fixedSeconds\": {}\n", one);
        assertThat(refusal(base.formatted("{\"weights\": \"fp12\", \"maxBatch\": 1, \"experts\": false,"
                        + " \"kernelsPerLayer\": 7, \"kernelsPerModel\": 2}")))
                .contains(
                        "field \"plans\" [1]: field \"weights\" must be \"any\" or a precision's name, got \"fp12\" (unknown precision 'fp12'");
        assertThat(refusal(base.formatted("{\"weights\": \"any\", \"maxBatch\": 1, \"experts\": \"no\","
                        + " \"kernelsPerLayer\": 7, \"kernelsPerModel\": 2}")))
                .contains("[1]: field \"experts\" must be true or false, got \"no\"");
        assertThat(refusal(base.formatted("{\"weights\": \"any\", \"maxBatch\": 0, \"experts\": true,"
                        + " \"kernelsPerLayer\": 7, \"kernelsPerModel\": 2}")))
                .contains("[1]: maxBatch must be >= 1, got 0");
        assertThat(refusal(base.formatted(
                        "{\"weights\": \"any\", \"maxBatch\": 1, \"experts\": true," + " \"kernels\": 7}")))
                .contains("[1]: unknown field \"kernels\"; a launch plan has [weights, maxBatch, experts,");
        assertThat(refusal(TEXT.replace("  \"fixedSeconds\": {}\n", "  \"fixedSeconds\": {},\n  \"plans\": 3\n")))
                .contains("field \"plans\" must be an array of launch plans, got 3");
    }

    @Test
    void aBadCollectiveIsRefusedWithItsIndexAndField() {
        String one = "  \"fixedSeconds\": {},\n  \"collectives\": [{\"op\": \"ALL_REDUCE\", \"ranks\": 2,"
                + " \"latencySeconds\": 2e-5, \"busBytesPerSecond\": 3e11}, %s]\n";
        String base = TEXT.replace("  \"fixedSeconds\": {}\n", one);
        assertThatThrownBy(() -> Calibration.parse(base.formatted("{\"op\": \"BROADCAST\", \"ranks\": 2,"
                        + " \"latencySeconds\": 2e-5, \"busBytesPerSecond\": 3e11}")))
                .hasMessageContaining("field \"collectives\" [1]: field \"op\" must be one of [ALL_REDUCE,");
        assertThat(refusal(base.formatted("{\"op\": \"ALL_GATHER\", \"ranks\": 2.5,"
                        + " \"latencySeconds\": 2e-5, \"busBytesPerSecond\": 3e11}")))
                .contains("[1]: field \"ranks\" must be a whole number of GPUs, got 2.5");
        assertThat(refusal(base.formatted("{\"op\": \"ALL_GATHER\", \"ranks\": 2, \"latency\": 1}")))
                .contains("[1]: unknown field \"latency\"");
        assertThat(refusal(base.formatted("{\"op\": \"ALL_REDUCE\", \"ranks\": 2,"
                        + " \"latencySeconds\": 2e-5, \"busBytesPerSecond\": 3e11}")))
                .contains("collectives: ALL_REDUCE on 2 ranks is given twice");
        assertThat(refusal(base.formatted("{\"op\": \"ALL_GATHER\", \"ranks\": 2,"
                        + " \"latencySeconds\": 2e-5, \"busBytesPerSecond\": -1}")))
                .contains("[1]: busBytesPerSecond");
    }

    @Test
    void wholeNumbersAndAnEmptyMapAreAccepted() {
        Calibration c = Calibration.parse(TEXT.replace("1.0E12", "1000000000000")
                .replace("\"elementwise\": 0.5,\n    \"gemv FP16\": 0.8\n  ", ""));
        assertThat(c.copyBytesPerSecond()).isEqualTo(1e12);
        assertThat(c.efficiencies()).isEmpty();
        assertThat(Calibration.parse(c.toJson())).isEqualTo(c);
    }

    @Test
    void errorsNameTheFileAndTheField(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("calib.json");
        Files.writeString(file, TEXT.replace("\"kernelsPerModel\": 2,\n", ""));
        assertThatThrownBy(() -> Calibration.read(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(file + ": field \"kernelsPerModel\" is missing");
    }

    @Test
    void eachBadFieldIsRefusedWithItsName() {
        assertThat(refusal(TEXT.replace("\"Test GPU\"", "null"))).isEqualTo("field \"device\" is missing (null)");
        assertThat(refusal(TEXT.replace("\"by hand\"", "\" \"")))
                .isEqualTo("field \"source\" must be a non-blank string, got \" \"");
        assertThat(refusal(TEXT.replace("\"2026-11-24\"", "\"24.11.2026\"")))
                .isEqualTo("field \"date\" must be an ISO date yyyy-mm-dd, got \"24.11.2026\"");
        assertThat(refusal(TEXT.replace("\"2026-11-24\"", "20261124")))
                .isEqualTo("field \"date\" must be a non-blank string, got 20261124");
        assertThat(refusal(TEXT.replace("1.0E12", "\"fast\"")))
                .isEqualTo("field \"copyBytesPerSecond\" must be a number, got \"fast\"");
        assertThat(refusal(TEXT.replace("1.0E12", "5")))
                .isEqualTo("copyBytesPerSecond must be a finite number of at least 1 GB/s (1.0E9), got 5.0");
        assertThat(refusal(TEXT.replace("2.0E-6", "2"))).isEqualTo("launchSeconds must be in [0, 1] s, got 2.0");
        assertThat(refusal(TEXT.replace("\"kernelsPerLayer\": 10", "\"kernelsPerLayer\": 10.5")))
                .isEqualTo("field \"kernelsPerLayer\" must be a whole number of kernels, got 10.5");
        assertThat(refusal(TEXT.replace("\"kernelsPerLayer\": 10", "\"kernelsPerLayer\": 3000000000")))
                .isEqualTo("field \"kernelsPerLayer\" must be a whole number of kernels, got 3000000000");
        assertThat(refusal(TEXT.replace("\"kernelsPerModel\": 2", "\"kernelsPerModel\": -1")))
                .isEqualTo("kernelsPerModel must be >= 0, got -1");
    }

    @Test
    void badEfficienciesAreRefusedWithTheClass() {
        assertThat(refusal(TEXT.replace("\"gemv FP16\": 0.8", "\"gemv FP16\": 1.6")))
                .isEqualTo("efficiencies: gemv FP16 must be in (0, 1.5], got 1.6");
        assertThat(refusal(TEXT.replace("\"gemv FP16\": 0.8", "\"gemv FP16\": 0")))
                .isEqualTo("efficiencies: gemv FP16 must be in (0, 1.5], got 0.0");
        assertThat(refusal(TEXT.replace("\"gemv FP16\": 0.8", "\"gemv FP16\": \"high\"")))
                .isEqualTo("field \"efficiencies\": \"gemv FP16\" must be a number, got \"high\"");
        assertThat(refusal(TEXT.replace("\"gemv FP16\"", "\"gemv FP17\"")))
                .startsWith("field \"efficiencies\": operator class \"gemv FP17\" names no precision");
        assertThat(refusal(TEXT.replace("\"gemv FP16\"", "\"matmul\"")))
                .startsWith("field \"efficiencies\": unknown operator class \"matmul\"");
        assertThat(refusal(TEXT.replace("{\n    \"elementwise\": 0.5,\n    \"gemv FP16\": 0.8\n  }", "[0.5]")))
                .isEqualTo("field \"efficiencies\" must be an object of operator class to fraction, got an array");
    }

    @Test
    void badFixedTimesAreRefusedWithTheClass(@TempDir Path dir) throws IOException {
        assertThat(refusal(FIXED.replace("6.1E-6", "-6.1E-6")))
                .isEqualTo("fixedSeconds: attention must be in [0, 1] s, got -6.1E-6");
        assertThat(refusal(FIXED.replace("6.1E-6", "2")))
                .isEqualTo("fixedSeconds: attention must be in [0, 1] s, got 2.0");
        assertThat(refusal(FIXED.replace("6.1E-6", "\"6 us\"")))
                .isEqualTo("field \"fixedSeconds\": \"attention\" must be a number, got \"6 us\"");
        assertThat(refusal(FIXED.replace("\"attention\": 6.1E-6", "\"attn\": 6.1E-6")))
                .startsWith("field \"fixedSeconds\": unknown operator class \"attn\"");
        assertThat(refusal(TEXT.replace("\"fixedSeconds\": {}", "\"fixedSeconds\": 6.1E-6")))
                .isEqualTo("field \"fixedSeconds\" must be an object of operator class to seconds, got 6.1E-6");
        assertThat(refusal(TEXT.replace("\"fixedSeconds\": {}", "\"fixedSeconds\": null")))
                .isEqualTo("field \"fixedSeconds\" is missing (null)");
        Path file = dir.resolve("calib.json");
        Files.writeString(file, FIXED.replace("6.1E-6", "1.5"));
        assertThatThrownBy(() -> Calibration.read(file))
                .hasMessage(file + ": fixedSeconds: attention must be in [0, 1] s, got 1.5");
    }

    @Test
    void theWholeTextMustBeOneObjectOfKnownFields() {
        assertThat(refusal(TEXT.replace("\"source\"", "\"sauce\"")))
                .startsWith("unknown field \"sauce\"; a calibration has [device, date, source,")
                .endsWith(", efficiencies, fixedSeconds, collectives, plans]");
        assertThat(refusal(TEXT.replace("\"fixedSeconds\"", "\"fixedSecond\"")))
                .startsWith("unknown field \"fixedSecond\"");
        assertThat(refusal("[1]")).isEqualTo("a calibration must be a JSON object, got an array");
        assertThat(refusal("{\"device\": ")).startsWith("not valid JSON: JSON line 1 column 12: unexpected end");
    }

    @Test
    void anUnreadableFileNamesItself(@TempDir Path dir) {
        Path missing = dir.resolve("none.json");
        assertThatThrownBy(() -> Calibration.read(missing))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageStartingWith("cannot read calibration " + missing + ": ");
        assertThatThrownBy(() -> CALIBRATION.write(dir.resolve("no/such/dir.json")))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageStartingWith("cannot write calibration " + dir.resolve("no/such/dir.json"));
    }

    /** The message {@link Calibration#parse} refuses {@code text} with, less its "calibration JSON: " prefix. */
    private static String refusal(String text) {
        try {
            Calibration.parse(text);
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).startsWith("calibration JSON: ");
            return e.getMessage().substring("calibration JSON: ".length());
        }
        throw new AssertionError("accepted: " + text);
    }
}
