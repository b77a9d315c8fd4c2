package dev.roofline.core.model;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SoftCappingTest {

    @Test
    void aCapOfZeroIsNone() {
        assertThat(SoftCapping.NONE.any()).isFalse();
        SoftCapping logits = new SoftCapping(0, 30);
        assertThat(logits.capsLogits()).isTrue();
        assertThat(logits.capsScores()).isFalse();
        assertThat(logits.any()).isTrue();
    }

    @Test
    void negativeOrUnboundedCapsAreRefusedByName() {
        assertThatThrownBy(() -> new SoftCapping(-1, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("attentionScores must be a finite cap >= 0 (0: none), got -1.0");
        assertThatThrownBy(() -> new SoftCapping(0, Double.POSITIVE_INFINITY)).hasMessageContaining("finalLogits");
        assertThatThrownBy(() -> new SoftCapping(Double.NaN, 0)).hasMessageContaining("attentionScores");
    }
}
