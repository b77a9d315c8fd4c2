package dev.roofline.bindings.loader;

import dev.roofline.bindings.cublaslt.cublaslt_h;
import dev.roofline.bindings.cudart.cudart_h;
import dev.roofline.bindings.nvml.nvml_h;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

class RequiredSymbolsTest {

    @Test
    void onlyIncludeFunctionLinesAreRequired() {
        String list = """
                # a comment --include-function notThis
                --target-package x.y
                --include-function cudaMalloc
                  --include-function   cudaFree
                --include-struct cudaDeviceProp
                --include-constant cudaSuccess
                """;
        assertThat(RequiredSymbols.parse(list)).containsExactly("cudaMalloc", "cudaFree");
    }

    @Test
    void theBundledIncludeListsHaveTheirFunctionCounts() {
        // counted by hand: grep -c '^--include-function' bindings/jextract/{cudart,cublaslt,nvml}.args
        assertThat(RequiredSymbols.of(NativeLibrary.CUDART)).hasSize(40).startsWith("cudaGetDeviceCount");
        assertThat(RequiredSymbols.of(NativeLibrary.CUBLASLT)).hasSize(16).startsWith("cublasLtCreate");
        assertThat(RequiredSymbols.of(NativeLibrary.NVML)).hasSize(19).startsWith("nvmlInit_v2");
    }

    @Test
    void everyRequiredFunctionIsAMethodOfItsGeneratedHeader() {
        // the include list is the source of the check; the generated code must agree with it (getMethods does not
        // initialize the function holders, so no library is needed)
        assertThat(methods(cudart_h.class)).containsAll(RequiredSymbols.of(NativeLibrary.CUDART));
        assertThat(methods(cublaslt_h.class)).containsAll(RequiredSymbols.of(NativeLibrary.CUBLASLT));
        assertThat(methods(nvml_h.class)).containsAll(RequiredSymbols.of(NativeLibrary.NVML));
    }

    @Test
    void missingKeepsOrderAndSkipsWhatTheLookupFinds() {
        try (Arena arena = Arena.ofConfined()) {
            SymbolLookup libm = SymbolLookup.libraryLookup(NativeLibrariesTest.libm(), arena);
            assertThat(RequiredSymbols.missing(List.of("cudaMalloc", "cos", "nvmlInit_v2", "sqrt"), libm))
                    .containsExactly("cudaMalloc", "nvmlInit_v2");
        }
    }

    @Test
    void describeNamesThreeAndCountsTheRest() {
        assertThat(RequiredSymbols.describe(List.of("a", "b"), 5))
                .isEqualTo("a, b (of the 5 functions the bindings call)");
        assertThat(RequiredSymbols.describe(List.of("a", "b", "c", "d", "e"), 9))
                .isEqualTo("a, b, c and 2 more of the 9 functions the bindings call");
    }

    private static Set<String> methods(Class<?> header) {
        return Arrays.stream(header.getMethods()).map(Method::getName).collect(Collectors.toSet());
    }
}
