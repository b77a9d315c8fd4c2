package dev.roofline.cuda.nccl;

import dev.roofline.bindings.error.NativeCallException;

/**
 * An NCCL call returned an error: the function, the numeric {@code ncclResult_t}, its name ({@code ncclInvalidUsage},
 * ...) and NCCL's own message ({@code ncclGetErrorString}, followed by {@code ncclGetLastError}'s detail when NCCL
 * gave one).
 */
public final class NcclException extends NativeCallException {

    /**
     * @param function       the NCCL function, e.g. {@code ncclAllReduce}
     * @param code           the {@code ncclResult_t} it returned
     * @param resultName     its name, e.g. {@code ncclInvalidArgument}
     * @param libraryMessage NCCL's message
     */
    public NcclException(String function, int code, String resultName, String libraryMessage) {
        super(function, code, resultName, libraryMessage);
    }
}
