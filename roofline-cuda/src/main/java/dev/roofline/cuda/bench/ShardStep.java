package dev.roofline.cuda.bench;

import dev.roofline.core.calibration.Calibration;
import dev.roofline.core.calibration.OperatorClass;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.model.Model;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;
import dev.roofline.cuda.Device;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.decode.DecoderShape;
import dev.roofline.cuda.decode.DecoderWeights;
import dev.roofline.cuda.decode.DenseDecoder;
import dev.roofline.cuda.kernels.KernelLaunch;
import dev.roofline.cuda.kernels.KvCacheFormat;
import dev.roofline.cuda.kernels.WeightFormat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One GPU's part of a tensor-parallel decode step ({@link DecoderShape#shard}) run on one GPU alone: the shard's
 * decoder with its all-reduces left out (partial sums that sum nothing), so that it launches the kernels each GPU of
 * the tensor-parallel step launches: its norms as kernels of their own, never in the products' epilogues, which a
 * one-GPU FP16 decoder fuses ({@link DenseDecoder#fusesNorms}).
 *
 * <p>A calibration fitted to the whole model prices a shard's products badly where the two run different plans or
 * where the shard's products are short: FP16's whole-model products were fitted with the norm epilogues, and narrower
 * products timed alone, each less a whole launch, came out faster than their roofline
 * (docs/measurements/2026-11-26-issue18-tp4-h200x4). So the shard's GEMV classes are fitted to the shard's own step,
 * profiled as {@link DecodeCalibration#fit} profiles a whole model's ({@link #calibrate}).
 */
final class ShardStep {
    /** Partial sums that leave each GPU's part as it is: the tensor-parallel plan on one GPU. */
    static final DenseDecoder.PartialSums NONE = (halves, count, stream) -> {};

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
                BenchmarkOptions.defaults().withGraph(1).withRepetitions(DecodeStepBenchmark.STEP_REPLAYS),
                profile,
                Optional.empty(),
                Transformer.of(part, measured).predict(w),
                Transformer.of(part, device.hardware()).predict(w),
                DecodeStepBenchmark.stepWeightBytes(shard, f, batch),
                DecodeStepBenchmark.kvBytes(shard, batch, context),
                stream);
    }

    /**
     * {@code c} with the GEMV classes of each of {@code formats} that it calibrates fitted to the shard: at one row
     * from the shard's step at one row and {@code context}, profiled ({@link #gemvEfficiency}), and at the row counts
     * of {@link GemvRowScaling#ROWS} from that efficiency over the shard's own products' row ratios
     * ({@link GemvRowScaling#measure}); every other class, the launch cost and the collectives stay {@code c}'s.
     */
    static Calibration calibrate(
            Device device,
            Model part,
            DecoderShape shard,
            List<WeightFormat> formats,
            int context,
            double theta,
            Calibration c) {
        Hardware measured = c.applyTo(device.hardware());
        Map<WeightFormat, Map<Integer, Double>> rowRatios = GemvRowScaling.measure(
                device, shard, formats, BenchmarkOptions.defaults().withRepetitions(20), c.launchSeconds());
        Map<WeightFormat, Map<Integer, Double>> ratios = new LinkedHashMap<>();
        try (Stream stream = Stream.create()) {
            for (WeightFormat f : formats) {
                OperatorClass plain = new OperatorClass.Gemv(f.precision());
                if (!c.calibrates(plain)) {
                    continue;
                }
                try (DecoderWeights weights = DecodeStepBenchmark.randomWeights(shard, f, 1)) {
                    DecodeStepResult oneRow =
                            measure(device, part, shard, weights, f, 1, context, theta, true, measured, stream);
                    double shardEfficiency = gemvEfficiency(oneRow, f, c.launchSeconds());
                    ratios.put(f, ratios(c.efficiency(plain), shardEfficiency, rowRatios.get(f)));
                }
            }
        }
        return GemvRowScaling.apply(c, ratios);
    }

    /**
     * The efficiency of {@code f}'s products in a profiled step, as {@link DecodeCalibration#fit} fits a class: their
     * roofline time over their measured time less their launches at {@code launchSeconds}, each summed over the
     * step's GEMV operators, kept within (0, {@link Calibration#MAX_EFFICIENCY}].
     *
     * @throws IllegalArgumentException when the step was not profiled or ran no product of {@code f}
     */
    static double gemvEfficiency(DecodeStepResult profiled, WeightFormat f, double launchSeconds) {
        if (profiled.operators().isEmpty()) {
            throw new IllegalArgumentException(DecodeStepReport.title(profiled) + " was not profiled");
        }
        OperatorClass gemv = new OperatorClass.Gemv(f.precision());
        double roofline = 0;
        double measured = 0;
        for (DecodeStepResult.OperatorTiming o : profiled.operators()) {
            if (DecodeCalibration.classOf(profiled.predicted(), o.operator())
                    .plain()
                    .equals(gemv)) {
                roofline += o.predictedSeconds();
                measured += o.measuredSeconds() - o.launches() * launchSeconds;
            }
        }
        if (roofline == 0) {
            throw new IllegalArgumentException(DecodeStepReport.title(profiled) + " ran no " + gemv + " product");
        }
        return DecodeCalibration.clamp(measured <= 0 ? Calibration.MAX_EFFICIENCY : roofline / measured);
    }

    /**
     * The time ratios {@link GemvRowScaling#apply} takes to price a shard's products at {@code shardEfficiency} at
     * one row and at that efficiency over {@code rowRatios} (the shard's time at M rows over one, net of launches and
     * of the roofline's own growth) at M rows, given the calibration's one-row efficiency {@code wholeEfficiency}:
     * {@code wholeEfficiency / shardEfficiency} at one row, times the row ratio at each M.
     */
    static Map<Integer, Double> ratios(double wholeEfficiency, double shardEfficiency, Map<Integer, Double> rowRatios) {
        if (!(wholeEfficiency > 0) || !(shardEfficiency > 0)) {
            throw new IllegalArgumentException("efficiencies must be positive, got " + wholeEfficiency + " (whole) and "
                    + shardEfficiency + " (shard)");
        }
        double atOne = wholeEfficiency / shardEfficiency;
        Map<Integer, Double> out = new LinkedHashMap<>();
        out.put(1, atOne);
        rowRatios.forEach((m, r) -> out.put(m, atOne * r));
        return out;
    }
}
