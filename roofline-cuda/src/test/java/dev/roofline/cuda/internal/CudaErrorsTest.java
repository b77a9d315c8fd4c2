package dev.roofline.cuda.internal;

import dev.roofline.cuda.CudaException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CudaErrorsTest {

    @Test
    void namesComeFromGeneratedConstantsWhenTheLibraryIsAbsent() {
        // values from driver_types.h (CUDA 13.0): cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2,
        // cudaErrorNoDevice = 100
        assertThat(CudaErrors.name(0, false)).isEqualTo("cudaSuccess");
        assertThat(CudaErrors.name(1, false)).isEqualTo("cudaErrorInvalidValue");
        assertThat(CudaErrors.name(2, false)).isEqualTo("cudaErrorMemoryAllocation");
        assertThat(CudaErrors.name(100, false)).isEqualTo("cudaErrorNoDevice");
    }

    @Test
    void unknownCodeStillNamesTheNumber() {
        assertThat(CudaErrors.name(987654, false)).isEqualTo("cudaError 987654");
    }

    @Test
    void messageWithoutLibrarySaysWhy() {
        assertThat(CudaErrors.message(2, false)).isEqualTo("(no message: libcudart.so.13 not loaded)");
    }

    @Test
    void exceptionCarriesFunctionCodeNameAndMessage() {
        CudaException e = new CudaException("cudaMalloc", 2, "cudaErrorMemoryAllocation", "out of memory");
        assertThat(e).hasMessage("cudaMalloc failed: cudaErrorMemoryAllocation (2): out of memory");
        assertThat(e.function()).isEqualTo("cudaMalloc");
        assertThat(e.code()).isEqualTo(2);
        assertThat(e.errorName()).isEqualTo("cudaErrorMemoryAllocation");
        assertThat(e.libraryMessage()).isEqualTo("out of memory");
    }
}
