#include <cstdint>
extern "C" __global__ void k(float* out, const uint32_t* in) {
    float d[4] = {0, 0, 0, 0};
    uint32_t a0 = in[0], a1 = in[1], a2 = in[2], a3 = in[3], b0 = in[4], b1 = in[5], sfa = in[6], sfb = in[7];
    asm volatile("mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3 "
        "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3}, %10, {0, 0}, %11, {0, 0};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(sfa), "r"(sfb));
    out[threadIdx.x] = d[0] + d[1] + d[2] + d[3];
}
