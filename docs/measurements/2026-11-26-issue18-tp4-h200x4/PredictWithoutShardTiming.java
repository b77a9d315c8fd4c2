// The TP 4 predictions of tp-decode (TensorParallelBenchmark.predict, package-private, reached by reflection) from a
// calibration file alone, without the shard products timed beside the whole model's (GemvRowScaling.forShard):
//   java -cp "$(ls dist/gpu/lib/*.jar | grep -v tests | tr '\n' ':')" PredictWithoutShardTiming.java calibration.json
import dev.roofline.core.calibration.Calibration;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.hardware.Interconnect;
import dev.roofline.core.model.Models;
import dev.roofline.cuda.kernels.WeightFormat;
import java.lang.reflect.Method;
import java.nio.file.Path;

public class PredictWithoutShardTiming {
    public static void main(String[] a) throws Exception {
        Calibration c = Calibration.read(Path.of(a[0]));
        Class<?> k = Class.forName("dev.roofline.cuda.bench.TensorParallelBenchmark");
        Method m = null;
        for (Method x : k.getDeclaredMethods()) if (x.getName().equals("predict")) m = x;
        m.setAccessible(true);
        for (WeightFormat f : new WeightFormat[] {WeightFormat.FP16, WeightFormat.FP8_E4M3, WeightFormat.NVFP4}) {
            for (int b : new int[] {1, 8}) {
                Object p = m.invoke(null, Models.LLAMA_3_8B, 4, f, b, 1024, Hardware.H200, Interconnect.NVLINK_4, c);
                System.out.println(f + " B" + b + " " + p);
            }
        }
    }
}
