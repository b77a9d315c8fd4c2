package dev.roofline.cuda;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code ROOFLINE_CUDART}/{@code ROOFLINE_CUBLASLT} set to a real library that is neither (the C math library): CUDA is
 * unavailable with a reason naming the path and the first missing function, and the JVM stays usable: the second
 * round of calls answers the same, with no {@code ExceptionInInitializerError} or {@code NoClassDefFoundError}. The
 * environment is read once per JVM, so the probe runs in a JVM of its own.
 */
class WrongLibraryTest {

    static final List<Path> LIBM = List.of(
            Path.of("/lib/x86_64-linux-gnu/libm.so.6"),
            Path.of("/usr/lib/x86_64-linux-gnu/libm.so.6"),
            Path.of("/lib/aarch64-linux-gnu/libm.so.6"),
            Path.of("/usr/lib64/libm.so.6"),
            Path.of("/lib64/libm.so.6"));

    @Test
    void theMathLibraryAsCudaMakesCudaUnavailableWithThePathAndTheMissingFunction()
            throws IOException, InterruptedException {
        Path libm = LIBM.stream().filter(Files::isRegularFile).findFirst().orElse(null);
        assumeTrue(libm != null, "no libm.so.6 at " + LIBM);
        List<String> lines = runProbe(libm);

        String reason = "no CUDA runtime: libcudart.so.13 (CUDA runtime) not found; set ROOFLINE_CUDART to its"
                + " absolute path. Tried: " + libm + " (loaded, but it lacks cudaGetDeviceCount, cudaGetDevice,"
                + " cudaSetDevice and 37 more of the 40 functions the bindings call: not a copy of libcudart.so.13)";
        String cublas = "cublasLt=CudaUnavailableException: no cuBLASLt: libcublasLt.so.13 (cuBLASLt) not found; set"
                + " ROOFLINE_CUBLASLT to its absolute path. Tried: " + libm + " (loaded, but it lacks cublasLtCreate,"
                + " cublasLtDestroy, cublasLtGetVersion and 13 more of the 16 functions the bindings call: not a copy"
                + " of libcublasLt.so.13)";
        List<String> round = List.of(
                "available=false", "reason=" + reason, "deviceCount=CudaUnavailableException: " + reason, cublas);
        assertThat(lines)
                .containsExactlyElementsOf(
                        Stream.concat(round.stream(), round.stream()).toList());
    }

    private static List<String> runProbe(Path libm) throws IOException, InterruptedException {
        String classPath = String.join(
                File.pathSeparator,
                System.getProperty("jdk.module.path", ""),
                System.getProperty("java.class.path", ""));
        ProcessBuilder pb = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "--enable-native-access=ALL-UNNAMED",
                        "-cp",
                        classPath,
                        WrongLibraryProbe.class.getName())
                .redirectErrorStream(true);
        pb.environment().put("ROOFLINE_CUDART", libm.toString());
        pb.environment().put("ROOFLINE_CUBLASLT", libm.toString());
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("probe finished").isTrue();
        String text = new String(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(text).isZero();
        return text.lines().toList();
    }
}
