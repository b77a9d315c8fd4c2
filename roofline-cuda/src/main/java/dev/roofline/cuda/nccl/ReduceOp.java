package dev.roofline.cuda.nccl;

import dev.roofline.bindings.nccl.nccl_h;

/** How a reducing collective combines the ranks' elements ({@code ncclRedOp_t}'s built-in operations). */
public enum ReduceOp {
    SUM(nccl_h.ncclSum()),
    PROD(nccl_h.ncclProd()),
    MAX(nccl_h.ncclMax()),
    MIN(nccl_h.ncclMin()),
    /** The sum divided by the ranks. */
    AVG(nccl_h.ncclAvg());

    final int code;

    ReduceOp(int code) {
        this.code = code;
    }
}
