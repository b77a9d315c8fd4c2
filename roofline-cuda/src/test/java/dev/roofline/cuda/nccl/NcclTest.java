package dev.roofline.cuda.nccl;

import dev.roofline.bindings.loader.NativeLibraries;
import dev.roofline.bindings.loader.NativeLibrary;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** What the NCCL layer does without a GPU: version names, result names, the reason NCCL is unavailable. */
class NcclTest {

    @Test
    void versionCodesReadAsMajorMinorPatch() {
        // ncclGetVersion: major * 10000 + minor * 100 + patch (nccl.h's NCCL_VERSION since 2.9)
        assertThat(Nccl.versionName(22809)).isEqualTo("2.28.9");
        assertThat(Nccl.versionName(21903)).isEqualTo("2.19.3");
        assertThatThrownBy(() -> Nccl.versionName(2708))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("2708");
    }

    @Test
    void resultsAreNamedFromTheHeadersEnum() {
        // nccl.h: ncclInvalidArgument = 4, ncclInvalidUsage = 5, ncclRemoteError = 6
        assertThat(NcclCalls.name(4)).isEqualTo("ncclInvalidArgument");
        assertThat(NcclCalls.name(5)).isEqualTo("ncclInvalidUsage");
        assertThat(NcclCalls.name(6)).isEqualTo("ncclRemoteError");
        assertThat(NcclCalls.name(99)).isEqualTo("ncclResult 99");
        assertThat(NcclCalls.failed(0)).isFalse();
        assertThat(NcclCalls.failed(7)).isFalse(); // ncclInProgress: a non-blocking call still running
        assertThat(NcclCalls.failed(3)).isTrue();
    }

    @Test
    void anErrorBeforeNcclLoadsSaysSo() {
        assumeFalse(NativeLibraries.isLoaded(NativeLibrary.NCCL), "NCCL is loaded: its own message is used");
        NcclException e = NcclCalls.exception("ncclAllReduce", 5, MemorySegment.NULL);
        assertThat(e).hasMessage("ncclAllReduce failed: ncclInvalidUsage (5): (no message: libnccl.so.2 not loaded)");
        assertThat(e.symbolicName()).isEqualTo("ncclInvalidUsage");
    }

    @Test
    void unavailableNcclGivesAReason() {
        assumeFalse(Nccl.isAvailable(), "NCCL is usable here");
        assertThat(Nccl.unavailableReason())
                .hasValueSatisfying(r -> assertThat(r).isNotBlank());
    }

    @Test
    void elementSizesAreThoseOfTheTypes() {
        assertThat(DataType.FLOAT32.bytes()).isEqualTo(4);
        assertThat(DataType.BFLOAT16.bytes()).isEqualTo(2);
        assertThat(DataType.FLOAT8_E4M3.bytes()).isEqualTo(1);
        assertThat(DataType.UINT64.bytes()).isEqualTo(8);
        // the codes nccl.h gives them
        assertThat(DataType.FLOAT16.code).isEqualTo(6);
        assertThat(DataType.BFLOAT16.code).isEqualTo(9);
        assertThat(ReduceOp.AVG.code).isEqualTo(4);
    }
}
