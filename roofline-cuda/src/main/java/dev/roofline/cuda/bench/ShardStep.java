package dev.roofline.cuda.bench;

import dev.roofline.core.calibration.Calibration;
import dev.roofline.core.calibration.OperatorClass;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.model.Model;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;
import dev.roofline.cuda.Device;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.decode.DecoderOperator;
import dev.roofline.cuda.decode.DecoderShape;
import dev.roofline.cuda.decode.DecoderWeights;
import dev.roofline.cuda.decode.DenseDecoder;
import dev.roofline.cuda.kernels.KernelLaunch;
import dev.roofline.cuda.kernels.KvCacheFormat;
import dev.roofline.cuda.kernels.WeightFormat;

import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One GPU's part of a tensor-parallel decode step ({@link DecoderShape#shard}) run on one GPU alone: the shard's
 * decoder with its all-reduces left out (partial sums that sum nothing), so that it launches the kernels each GPU of
 * the tensor-parallel step launches: its norms and RoPE as kernels of their own, never in the products' epilogues,
 * which a one-GPU FP16 or FP8 decoder fuses ({@link DenseDecoder#fusesNorms}, {@link DenseDecoder#fusesRope}).
 *
 * <p>A calibration fitted to the whole model prices a shard's products badly where the two run different plans or
 * where the shard's products are short: FP16's whole-model products were fitted with the norm epilogues, and narrower
 * products timed alone, each less a whole launch, came out faster than their roofline
 * (docs/measurements/2026-11-26-issue18-tp4-h200x4). So the shard's product classes are fitted to the shard's own
 * step, profiled as {@link DecodeCalibration#fit} profiles a whole model's ({@link #fit}).
 */
final class ShardStep {
    /** Partial sums that leave each GPU's part as it is: the tensor-parallel plan on one GPU. */
    static final DenseDecoder.PartialSums NONE = (halves, count, stream) -> {};

    /** The step's operators that are products of weights. */
    static final Set<DecoderOperator> PRODUCTS = EnumSet.of(
            DecoderOperator.QKV_PROJ,
            DecoderOperator.O_PROJ,
            DecoderOperator.GATE_UP_PROJ,
            DecoderOperator.DOWN_PROJ,
            DecoderOperator.LM_HEAD);

    private ShardStep() {}

    /**
     * The shard's step on {@code device} at {@code batch} × {@code context}, FP16 cache, programmatic launches, with
     * its operators timed alone when {@code profile}: priced on {@code part} (the shard as a model of its own) at
     * {@code measured} (the hardware at the calibration's copy bandwidth) and on the datasheet.
     */
    static DecodeStepResult measure(
            Device device,
            Model part,
            DecoderShape shard,
            DecoderWeights weights,
            WeightFormat f,
            int batch,
            int context,
            double theta,
            boolean profile,
            Hardware measured,
            Stream stream) {
        DecodeStepBenchmark.Config config =
                new DecodeStepBenchmark.Config(f, KvCacheFormat.FP16, batch, context, KernelLaunch.PROGRAMMATIC);
        Workload w = DecodeStepBenchmark.workload(f, batch, context);
        return DecodeStepBenchmark.measure(
                device,
                part.name(),
                shard,
                weights,
                NONE,
                config,
                theta,
                DecodeStepBenchmark.stepTiming(),
                profile,
                Optional.empty(),
                Transformer.of(part, measured).predict(w),
                Transformer.of(part, device.hardware()).predict(w),
                DecodeStepBenchmark.stepWeightBytes(shard, f, batch),
                DecodeStepBenchmark.kvBytes(shard, batch, context),
                stream);
    }

    /**
     * {@code c} with the classes of the products in {@code profiled} (steps of the shard, profiled) fitted to them:
     * for each class the steps' products are priced with ({@link #productClass}), their roofline time over their
     * measured time less their launches at {@code c}'s launch cost, each summed over the steps of that class (so
     * batches that share one, above {@link OperatorClass#GEMV_MEASURED_MAX_ROWS} rows, are one ratio of sums, as
     * {@link DecodeCalibration#fit} fits a class), kept within (0, {@link Calibration#MAX_EFFICIENCY}]; every other
     * class, the launch cost and the collectives stay {@code c}'s. The products are fitted at every batch rather than
     * scaled from one row: their time ratios at more rows, timed alone, did not carry into the shard's graphed step
     * (cuBLASLt's FP16 products above one row: docs/measurements/2026-11-26-issue18-shard-h200x4).
     *
     * @throws IllegalArgumentException when a step was not profiled
     */
    static Calibration fit(Calibration c, List<DecodeStepResult> profiled) {
        Map<OperatorClass, double[]> sums = new LinkedHashMap<>(); // class -> {roofline s, measured s less launches}
        for (DecodeStepResult r : profiled) {
            double[] t = productTimes(r, c.launchSeconds());
            double[] s = sums.computeIfAbsent(
                    productClass(r.config().format(), r.config().batch(), r), k -> new double[2]);
            s[0] += t[0];
            s[1] += t[1];
        }
        Map<OperatorClass, Double> efficiencies = new LinkedHashMap<>(c.efficiencies());
        sums.forEach((k, s) ->
                efficiencies.put(k, DecodeCalibration.clamp(s[1] <= 0 ? Calibration.MAX_EFFICIENCY : s[0] / s[1])));
        return c.withEfficiencies(efficiencies);
    }

    /**
     * The class a calibration prices {@code f}'s products at {@code rows} activation rows with: {@code gemv <P>
     * m<rows>} up to {@link OperatorClass#GEMV_MEASURED_MAX_ROWS} rows (a class measured at exactly these rows is the
     * one {@link Calibration#classOf} picks), else the products' own class in {@code profiled}.
     */
    static OperatorClass productClass(WeightFormat f, int rows, DecodeStepResult profiled) {
        if (rows <= OperatorClass.GEMV_MEASURED_MAX_ROWS) {
            return new OperatorClass.Gemv(f.precision(), rows);
        }
        return DecodeCalibration.classOf(profiled.predicted(), DecoderOperator.QKV_PROJ);
    }

    /**
     * The products' (q/k/v, o, gate/up, down, lm_head) roofline time and measured time less their launches at
     * {@code launchSeconds} in a profiled step, summed over its product operators, in seconds.
     *
     * @throws IllegalArgumentException when the step was not profiled
     */
    static double[] productTimes(DecodeStepResult profiled, double launchSeconds) {
        if (profiled.operators().isEmpty()) {
            throw new IllegalArgumentException(DecodeStepReport.title(profiled) + " was not profiled");
        }
        double roofline = 0;
        double measured = 0;
        for (DecodeStepResult.OperatorTiming o : profiled.operators()) {
            if (PRODUCTS.contains(o.operator())) {
                roofline += o.predictedSeconds();
                measured += o.measuredSeconds() - o.launches() * launchSeconds;
            }
        }
        return new double[] {roofline, measured};
    }
}
