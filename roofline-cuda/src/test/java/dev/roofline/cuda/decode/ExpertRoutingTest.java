package dev.roofline.cuda.decode;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** Mixtral's rule (softmax, top-k, divide by the chosen ones' sum) on logits whose softmax is known by hand. */
class ExpertRoutingTest {

    @Test
    void theTwoLargestProbabilitiesAreRenormalisedOverTheirSum() {
        // logits ln 1, ln 2, ln 3, ln 4: softmax 0.1, 0.2, 0.3, 0.4; top 2 = experts 3 and 2, 0.4 / 0.7 and 0.3 / 0.7
        ExpertRouting.Routing r = ExpertRouting.route(new double[] {0, Math.log(2), Math.log(3), Math.log(4)}, 1, 4, 2);
        assertThat(r.ids()).containsExactly(3, 2);
        assertThat(r.weights()[0]).isCloseTo(4.0 / 7, within(1e-15));
        assertThat(r.weights()[1]).isCloseTo(3.0 / 7, within(1e-15));
        // the last chosen (ln 3) against the best left out (ln 2)
        assertThat(r.margin()).isCloseTo(Math.log(1.5), within(1e-15));
    }

    @Test
    void tiesGoToTheLowerExpertIndex() {
        // experts 1 and 3 tie at the top, 0 and 2 below them tie too: 1 before 3, and a third pick would be 0
        ExpertRouting.Routing two = ExpertRouting.route(new double[] {1, 3, 1, 3}, 1, 4, 2);
        assertThat(two.ids()).containsExactly(1, 3);
        assertThat(two.weights()).containsExactly(0.5, 0.5);
        ExpertRouting.Routing three = ExpertRouting.route(new double[] {1, 3, 1, 3}, 1, 4, 3);
        assertThat(three.ids()).containsExactly(1, 3, 0);
        assertThat(three.margin()).isZero(); // expert 2 ties with the last chosen
    }

    @Test
    void eachTokenIsRoutedByItsOwnRow() {
        // row 0: e^0, e^1, e^2 -> experts 2, 1 with e^2 / (e^2 + e) = e / (e + 1); row 1 reversed -> experts 0, 1
        ExpertRouting.Routing r = ExpertRouting.route(new double[] {0, 1, 2, 2, 1, 0}, 2, 3, 2);
        assertThat(r.ids()).containsExactly(2, 1, 0, 1);
        double e = Math.E;
        assertThat(r.weights())
                .containsExactly(new double[] {e / (e + 1), 1 / (e + 1), e / (e + 1), 1 / (e + 1)}, within(1e-15));
        assertThat(r.margin()).isCloseTo(1, within(1e-15));
    }

    @Test
    void aNaNLogitRanksBelowEveryNumber() {
        ExpertRouting.Routing r = ExpertRouting.route(new double[] {Double.NaN, -5, -7}, 1, 3, 2);
        assertThat(r.ids()).containsExactly(1, 2);
        // e^-5 / (e^-5 + e^-7) = 1 / (1 + e^-2)
        assertThat(r.weights()[0]).isCloseTo(1 / (1 + Math.exp(-2)), within(1e-15));
    }

    @Test
    void aTopKOutsideTheExpertsOrLogitsOfTheWrongLengthAreNamed() {
        assertThatThrownBy(() -> ExpertRouting.route(new double[4], 1, 4, 5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("topK must be in [1, experts = 4], got 5");
        assertThatThrownBy(() -> ExpertRouting.route(new double[7], 2, 4, 2))
                .hasMessage("logits must hold rows x experts = 8 values, got 7");
    }
}
