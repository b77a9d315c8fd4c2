package dev.roofline.cuda.bench;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.model.Models;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;
import dev.roofline.cuda.decode.DecoderOperator;
import dev.roofline.cuda.kernels.KernelLaunch;
import dev.roofline.cuda.kernels.WeightFormat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Profiled decode steps made up for tests: the operators' times are the test's, the predictions the model's. */
final class ProfiledSteps {
    private ProfiledSteps() {}

    /**
     * A measured Llama-3-8B FP16 step at batch 1 and 1024 tokens, predicted on the H200 datasheet, whose operators
     * have {roofline us, measured us} in {@link DecoderOperator} order (none: not profiled).
     */
    static DecodeStepResult llama3Fp16(double[][] micros) {
        return llama3Fp16(micros, false);
    }

    /**
     * {@link #llama3Fp16(double[][])}, with the norms fused into the products when {@code fusedNorms} (one norm launch,
     * layer 0's input, as {@code DenseDecoder.launches} counts them).
     */
    static DecodeStepResult llama3Fp16(double[][] micros, boolean fusedNorms) {
        return llama3Fp16(micros, fusedNorms, 1);
    }

    /** {@link #llama3Fp16(double[][], boolean)} at {@code batch} sequences. */
    static DecodeStepResult llama3Fp16(double[][] micros, boolean fusedNorms, int batch) {
        return llama3Fp16(micros, fusedNorms, false, batch);
    }

    /**
     * {@link #llama3Fp16(double[][], boolean, int)}, with RoPE and the KV append in the q/k/v product when
     * {@code fusedRope} (no launch of their own, as {@code DenseDecoder.launches} counts them).
     */
    static DecodeStepResult llama3Fp16(double[][] micros, boolean fusedNorms, boolean fusedRope, int batch) {
        Workload w = Workload.decode(batch, 1024).withWeights(Precision.FP16);
        ModelPrediction p = Transformer.of(Models.LLAMA_3_8B, Hardware.H200).predict(w);
        List<DecodeStepResult.OperatorTiming> ops = new ArrayList<>();
        for (int i = 0; i < micros.length; i++) {
            DecoderOperator o = DecoderOperator.values()[i];
            int launches = o.launches(32, fusedNorms, fusedRope);
            ops.add(new DecodeStepResult.OperatorTiming(
                    o, launches, micros[i][0] * 1e-6, micros[i][0] * 1e-6, micros[i][1] * 1e-6));
        }
        return new DecodeStepResult(
                "Llama-3-8B",
                new DecodeStepBenchmark.Config(WeightFormat.FP16, batch, 1024, KernelLaunch.PROGRAMMATIC),
                5e-3,
                p,
                p,
                1,
                1,
                ops,
                Optional.empty(),
                null);
    }
}
