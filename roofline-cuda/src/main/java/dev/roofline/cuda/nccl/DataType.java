package dev.roofline.cuda.nccl;

import dev.roofline.bindings.nccl.nccl_h;

/** The element types NCCL reduces and moves ({@code ncclDataType_t}), with their size. */
public enum DataType {
    INT8(nccl_h.ncclInt8(), 1),
    UINT8(nccl_h.ncclUint8(), 1),
    INT32(nccl_h.ncclInt32(), 4),
    UINT32(nccl_h.ncclUint32(), 4),
    INT64(nccl_h.ncclInt64(), 8),
    UINT64(nccl_h.ncclUint64(), 8),
    FLOAT16(nccl_h.ncclFloat16(), 2),
    FLOAT32(nccl_h.ncclFloat32(), 4),
    FLOAT64(nccl_h.ncclFloat64(), 8),
    BFLOAT16(nccl_h.ncclBfloat16(), 2),
    FLOAT8_E4M3(nccl_h.ncclFloat8e4m3(), 1),
    FLOAT8_E5M2(nccl_h.ncclFloat8e5m2(), 1);

    final int code;
    private final int bytes;

    DataType(int code, int bytes) {
        this.code = code;
        this.bytes = bytes;
    }

    /** Bytes of one element. */
    public int bytes() {
        return bytes;
    }
}
