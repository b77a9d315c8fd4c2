package dev.roofline.core.recommend;

import dev.roofline.core.calibration.CalibratedPrediction;
import dev.roofline.core.calibration.Calibration;
import dev.roofline.core.calibration.OperatorClass;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.model.Models;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** A recommender with a calibration ranks candidates by their calibrated times. */
class CalibratedRecommenderTest {

    static final Workload DECODE = Workload.decode(1, 4096);
    static final Calibration.Provenance RUN =
            new Calibration.Provenance("NVIDIA GB10", LocalDate.of(2026, 11, 24), "test");

    private static Calibration calibration(double int8Gemv) {
        return new Calibration(
                RUN,
                250e9,
                5e-6,
                10,
                2,
                Map.of(
                        new OperatorClass.Gemv(Precision.FP16),
                        1.0,
                        new OperatorClass.Gemv(Precision.INT8),
                        int8Gemv,
                        OperatorClass.ELEMENTWISE,
                        0.5));
    }

    private static ModelRecommendation recommend(Calibration c) {
        return Recommender.on(Hardware.GB10)
                .withConstraint(AccuracyConstraint.allowing(Precision.INT8))
                .withCalibration(c)
                .recommend(Models.LLAMA_3_8B, DECODE);
    }

    @Test
    void anInt8GemvMeasuredBelowHalfTheCopyLosesToFp16() {
        // INT8 weights are half the bytes; read at 0.4 of the copy instead of 1.0 they take 0.5 / 0.4 = 1.25x as long
        ModelRecommendation r = recommend(calibration(0.4));
        assertThat(r.model().choice()).isEqualTo(Choice.FP16);
        assertThat(r.model().speedupVsFp16()).isEqualTo(1.0);
        assertThat(r.ranked())
                .filteredOn(x -> x.choice().weights() == Precision.INT8)
                .allSatisfy(x -> assertThat(x.speedupVsFp16()).isLessThan(1));
        // without the calibration the byte ratio wins (RecommenderTest: 1.81x)
        assertThat(Recommender.on(Hardware.GB10)
                        .withConstraint(AccuracyConstraint.allowing(Precision.INT8))
                        .recommend(Models.LLAMA_3_8B, DECODE)
                        .model()
                        .choice()
                        .weights())
                .isEqualTo(Precision.INT8);
    }

    @Test
    void speedupsAreRatiosOfCalibratedTimesLaunchesIncluded() {
        Calibration c = calibration(0.9);
        ModelRecommendation r = recommend(c);
        Transformer t = Transformer.of(Models.LLAMA_3_8B, Hardware.GB10);
        CalibratedPrediction fp16 = c.predict(t, DECODE);
        CalibratedPrediction chosen =
                c.predict(t, DECODE.withWeights(r.model().choice().weights()));
        assertThat(r.model().choice().weights()).isEqualTo(Precision.INT8);
        assertThat(r.model().speedupVsFp16()).isCloseTo(fp16.timeSeconds() / chosen.timeSeconds(), within(1e-12));
        assertThat(r.chosen().timeSeconds()).isEqualTo(chosen.calibrated().timeSeconds());
        assertThat(r.fp16().hardware().memoryBytesPerSecond()).isEqualTo(250e9);
        assertThat(r.model().reason())
                .endsWith(String.format(
                        "for a predicted %.2fx over FP16.", r.model().speedupVsFp16()));
    }

    @Test
    void uncalibratedClassesCoverEveryCandidatePriced() {
        // W8A8 quantizes the activations, so its LM head is left in the checkpoint's BF16 (Workload.embeddings)
        assertThat(recommend(calibration(0.4)).uncalibratedClasses())
                .containsExactly(OperatorClass.ATTENTION, new OperatorClass.Gemv(Precision.BF16));
        assertThat(Recommender.on(Hardware.GB10)
                        .recommend(Models.LLAMA_3_8B, DECODE)
                        .uncalibratedClasses())
                .isEmpty();
        assertThatThrownBy(() -> Recommender.on(Hardware.GB10).withCalibration(null))
                .hasMessage("calibration must not be null");
    }
}
