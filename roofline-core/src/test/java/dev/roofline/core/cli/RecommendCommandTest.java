package dev.roofline.core.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code roofline recommend}: --allow limits the formats; the output says what each role got and why. */
class RecommendCommandTest {

    @Test
    void allowInt8RecommendsInt8WeightsAndExplainsActivationsAndKv() {
        // the byte ratio 1.81x is checked by hand in RecommenderTest
        MainTest.Run r = MainTest.run("recommend", "llama-3-8b", "--hw", "gb10", "--allow", "int8");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out())
                .startsWith("Llama-3-8B on GB10: use W INT8, A FP16, KV FP16 (1.81x vs FP16)")
                .contains("weights: INT8 (candidates FP16, INT8): INT8 gives 1.81x over FP16")
                .contains("activations: FP16 (candidates FP16, INT8): ")
                .contains("KV cache: FP16 (candidates FP16): FP16 is the only candidate")
                .contains("not a candidate: INT8 for the KV cache: not a KV-cache format")
                .containsPattern("q_proj +INT8 +FP16 +FP16 +2.00x")
                .contains("The LM head stays at 16 bits like the embedding table");
    }

    @Test
    void nf4AndInt2AreWeightCandidatesAndTheirOtherRolesAreExplained() {
        MainTest.Run r = MainTest.run("recommend", "llama-3-8b", "--hw", "gb10", "--allow", "nf4,int2");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("use W INT2, A FP16, KV FP16")
                .contains("weights: INT2 (candidates FP16, INT2, NF4)")
                .contains("not a candidate: NF4 for the activations: a weight-only format")
                .contains("not a candidate: INT2 for the activations: no INT2 tensor cores on GB10")
                .contains("not a candidate: NF4 for the KV cache")
                .contains("not a candidate: INT2 for the KV cache");
    }
}
