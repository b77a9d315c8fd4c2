// Probe (issue 15): the read floor of a persistent decode step. Llama-3-8B, FP8 weights (lm_head FP16), batch 1,
// FP16 KV cache at a given context. Every launch of the shipped FP8 step (322) becomes one phase of a single
// cooperative kernel (one block an SM) with a grid-wide barrier after it, and each phase only reads what the launch
// reads: the products their weights (DRAM), the attention's split pass its layer's KV (DRAM), the norms, RoPE + append,
// the merge and SiLU x up a few kB to 0.5 MB from L2.
//
// The products' weights reach each block through a ring in shared memory filled by bulk copies (one producer lane,
// an mbarrier a slot). A product's chunks are dealt to the blocks round-robin, each product starting where the one
// before stopped, so no block gets every product's odd chunk. Variants:
//   gated  - the producer may fill the ring with a product's weights only once the block has passed the barrier before
//            that product (the persistent twin of a launch per operator: nothing crosses a dependency);
//   ahead  - the producer runs ahead of the barriers, bounded only by the ring: a product's first weights arrive while
//            the small phases before it wait on barriers (weights never depend on the activations);
//   bar    - the same phases and barriers with no bytes (what the 322 barriers cost);
//   launch - one launch a phase of a plain read kernel in a CUDA graph, programmatic dependent launch (the repo's
//            StepReads);
//   read all, ring all - every DRAM byte of the step in one launch of that kernel, or through the ring with no barrier.
// Consumers (8 warps) read each slot from shared memory and fold it by XOR; one thread stores only if the fold equals a
// key no data gives, so no read can be dropped.
//
// Build: nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o persist persist.cu
// Run:   ./persist [context=1024] [rounds=20] [schedule=322|226]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#define CK(x)                                                                                                         \
    do {                                                                                                              \
        cudaError_t e_ = (x);                                                                                         \
        if (e_ != cudaSuccess) {                                                                                      \
            std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));                   \
            std::exit(1);                                                                                             \
        }                                                                                                             \
    } while (0)

enum Kind { WEIGHTS = 0, DRAM = 1, L2 = 2 };

struct Op {
    int kind;
    const char* base;
    long long bytes;
};

constexpr int CONSUMERS = 256;  // 8 warps
constexpr int THREADS = CONSUMERS + 32;
constexpr unsigned KEY = 0x9e3779b9u;

__device__ __forceinline__ unsigned smem_addr(const void* p) {
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbar_init(unsigned long long* b, unsigned count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(b)), "r"(count) : "memory");
}

__device__ __forceinline__ void mbar_wait(unsigned long long* b, unsigned parity) {
    asm volatile("{\n.reg .pred P1;\nW: mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n@!P1 bra W;\n}\n" ::"r"(
                     smem_addr(b)),
                 "r"(parity)
                 : "memory");
}

__device__ __forceinline__ void mbar_arrive(unsigned long long* b) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_addr(b)) : "memory");
}

__device__ __forceinline__ void bulk_load(void* dst, const void* src, unsigned bytes, unsigned long long* b) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(b)), "r"(bytes) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                     smem_addr(dst)),
                 "l"(src), "r"(bytes), "r"(smem_addr(b))
                 : "memory");
}

__device__ __forceinline__ void consumers_sync() { asm volatile("bar.sync 1, %0;" ::"n"(CONSUMERS) : "memory"); }

// All blocks' consumers meet. Kind 0: the last to arrive resets the count and releases the generation (two L2 round
// trips after the last arrival). Kind 1: each block adds to a count that only grows and polls it until every block of
// this barrier has added (one round trip).
__device__ __forceinline__ void grid_sync(unsigned* count, unsigned* gen, unsigned blocks, unsigned& g, int kind) {
    consumers_sync();
    if (threadIdx.x == 0 && kind == 1) {
        const unsigned target = (g + 1) * blocks;
        asm volatile("red.release.gpu.global.add.u32 [%0], 1;" ::"l"(count) : "memory");
        unsigned v;
        do {
            asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(v) : "l"(count) : "memory");
        } while (v < target);
        g++;
    } else if (threadIdx.x == 0) {
        unsigned arrived;
        asm volatile("atom.add.release.gpu.u32 %0, [%1], 1;" : "=r"(arrived) : "l"(count) : "memory");
        if (arrived == blocks - 1) {
            asm volatile("st.relaxed.gpu.u32 [%0], 0;" ::"l"(count) : "memory");
            asm volatile("st.release.gpu.u32 [%0], %1;" ::"l"(gen), "r"(g + 1) : "memory");
        } else {
            unsigned v;
            do {
                asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(v) : "l"(gen) : "memory");
            } while (v == g);
        }
        g++;
    }
    consumers_sync();
}

__device__ __forceinline__ uint4 read_once(const void* p) {
    uint4 v;
    asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "l"(p));
    return v;
}

// mode 0 gated, 1 ahead, 2 barriers only; kind: grid_sync's
extern "C" __global__ void __launch_bounds__(THREADS, 1) persistent(
    const Op* ops, int nops, int chunk, int slots, int mode, int kind, unsigned* count, unsigned* gen, unsigned* sink) {
    extern __shared__ __align__(128) unsigned char smem[];
    unsigned long long* full = reinterpret_cast<unsigned long long*>(smem);
    unsigned long long* empty = full + slots;
    volatile int* passed = reinterpret_cast<volatile int*>(empty + slots);
    unsigned char* ring = smem + 1024;
    const unsigned blocks = gridDim.x;
    const unsigned b = blockIdx.x;
    if (threadIdx.x == 0) {
        for (int s = 0; s < slots; s++) {
            mbar_init(full + s, 1);
            mbar_init(empty + s, 1);
        }
        *passed = -1;
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x >= CONSUMERS) {
        if (threadIdx.x != CONSUMERS || mode == 2) return;
        long long f = 0, dealt = 0;
        for (int i = 0; i < nops; i++) {
            const Op op = ops[i];
            if (op.kind != WEIGHTS) continue;
            const long long chunks = (op.bytes + chunk - 1) / chunk;
            const long long first = ((b - dealt) % blocks + blocks) % blocks;
            dealt += chunks;
            for (long long j = first; j < chunks; j += blocks) {
                if (mode == 0)
                    while (*passed < i) {
                    }
                const int s = static_cast<int>(f % slots);
                const long long k = f / slots;
                if (k > 0) mbar_wait(empty + s, static_cast<unsigned>((k - 1) & 1));
                const unsigned n = static_cast<unsigned>(min(static_cast<long long>(chunk), op.bytes - j * chunk));
                bulk_load(ring + static_cast<long long>(s) * chunk, op.base + j * chunk, n, full + s);
                f++;
            }
        }
        return;
    }
    unsigned acc = 0;
    unsigned g = 0;
    long long f = 0, dealt = 0;
    const long long gstride = static_cast<long long>(blocks) * CONSUMERS;
    for (int i = 0; i < nops; i++) {
        if (i > 0) grid_sync(count, gen, blocks, g, kind);
        if (threadIdx.x == 0) *passed = i;
        const Op op = ops[i];
        if (mode == 2) continue;
        if (op.kind == WEIGHTS) {
            const long long chunks = (op.bytes + chunk - 1) / chunk;
            const long long first = ((b - dealt) % blocks + blocks) % blocks;
            dealt += chunks;
            for (long long j = first; j < chunks; j += blocks) {
                const int s = static_cast<int>(f % slots);
                mbar_wait(full + s, static_cast<unsigned>((f / slots) & 1));
                const int n = static_cast<int>(min(static_cast<long long>(chunk), op.bytes - j * chunk));
                const uint4* w = reinterpret_cast<const uint4*>(ring + static_cast<long long>(s) * chunk);
                for (int t = threadIdx.x; t < n / 16; t += CONSUMERS) {
                    const uint4 v = w[t];
                    acc ^= v.x ^ v.y ^ v.z ^ v.w;
                }
                consumers_sync();
                if (threadIdx.x == 0) mbar_arrive(empty + s);
                f++;
            }
        } else {
            const long long words = op.bytes / 16;
            const uint4* src = reinterpret_cast<const uint4*>(op.base);
            long long t = static_cast<long long>(b) * CONSUMERS + threadIdx.x;
            for (; t + 3 * gstride < words; t += 4 * gstride) {
                uint4 v[4];
#pragma unroll
                for (int u = 0; u < 4; u++) v[u] = read_once(src + t + u * gstride);
#pragma unroll
                for (int u = 0; u < 4; u++) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
            }
            for (; t < words; t += gstride) {
                const uint4 v = read_once(src + t);
                acc ^= v.x ^ v.y ^ v.z ^ v.w;
            }
        }
    }
    grid_sync(count, gen, blocks, g, kind);
    if (acc == KEY) sink[0] = acc;
}

// The repo's stream_read (stream.cu), programmatic: wait for the kernel before, then let the next launch.
extern "C" __global__ void __launch_bounds__(256) stream_read(const uint4* src, long long words, unsigned* sink) {
    asm volatile("griddepcontrol.wait;" ::: "memory");
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
    const long long stride = static_cast<long long>(gridDim.x) * 256;
    long long i = static_cast<long long>(blockIdx.x) * 256 + threadIdx.x;
    unsigned acc = 0;
    for (; i + 3 * stride < words; i += 4 * stride) {
        uint4 v[4];
#pragma unroll
        for (int u = 0; u < 4; u++) v[u] = read_once(src + i + u * stride);
#pragma unroll
        for (int u = 0; u < 4; u++) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
    }
    for (; i < words; i += stride) {
        const uint4 v = read_once(src + i);
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == KEY) sink[0] = acc;
}

static float median(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main(int argc, char** argv) {
    const int context = argc > 1 ? std::atoi(argv[1]) : 1024;
    const int rounds = argc > 2 ? std::atoi(argv[2]) : 20;
    // 322: the shipped FP8 step's launches; 226: the FP16 step's, whose norms run in the products and RoPE + append in
    // the q/k/v product (layer 0's input norm and the final norm stay launches)
    const int schedule = argc > 3 ? std::atoi(argv[3]) : 322;
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    const int sms = prop.multiProcessorCount;

    // Llama-3-8B: hidden 4096, 32 heads / 8 KV heads of 128, intermediate 14336, vocab 128256, 32 layers.
    const long long H = 4096, KVD = 1024, I = 14336, V = 128256;
    const int L = 32;
    const long long qkv = (H + 2 * KVD) * H + (H + 2 * KVD) * 4;  // FP8 and one FP32 scale a row
    const long long o = H * H + H * 4, gu = 2 * I * H + 2 * I * 4, down = H * I + H * 4;
    const long long lm = V * H * 2;                                 // FP16
    const long long kv = static_cast<long long>(context) * KVD * 2 * 2;  // K and V, FP16
    const int splits = std::max(1, context / 32);
    const long long norm = 3 * H * 2, rope = (H + 2 * KVD) * 2, merge = 32LL * splits * (128 + 2) * 4,
                    silu = 3 * I * 2;

    long long dram = 0;
    for (int l = 0; l < L; l++) dram += qkv + o + gu + down + kv;
    dram += lm;
    const long long extent = (dram + 256LL * 400 + 4095) & ~4095LL;
    char* buf;
    CK(cudaMalloc(&buf, extent));
    CK(cudaMemset(buf, 0x5a, extent));
    char* small;
    CK(cudaMalloc(&small, 8 << 20));
    CK(cudaMemset(small, 0x33, 8 << 20));

    std::vector<Op> ops;
    long long at = 0;
    auto w = [&](int kind, long long bytes) {
        ops.push_back({kind, buf + at, bytes});
        at += (bytes + 255) & ~255LL;
    };
    auto s = [&](long long bytes) { ops.push_back({L2, small, (bytes + 15) & ~15LL}); };
    const bool fused = schedule == 226;
    for (int l = 0; l < L; l++) {
        if (!fused || l == 0) s(norm);
        w(WEIGHTS, qkv);
        if (!fused) s(rope);
        w(DRAM, kv);
        s(merge);
        w(WEIGHTS, o);
        if (!fused) s(norm);
        w(WEIGHTS, gu);
        s(silu);
        w(WEIGHTS, down);
    }
    if (!fused) s(norm);
    w(WEIGHTS, lm);
    const int nops = static_cast<int>(ops.size());
    Op* dops;
    CK(cudaMalloc(&dops, sizeof(Op) * nops));
    CK(cudaMemcpy(dops, ops.data(), sizeof(Op) * nops, cudaMemcpyHostToDevice));
    // The same DRAM bytes as one product: how fast the ring streams with no barrier at all.
    const Op whole = {WEIGHTS, buf, dram};
    Op* dwhole;
    CK(cudaMalloc(&dwhole, sizeof(Op)));
    CK(cudaMemcpy(dwhole, &whole, sizeof(Op), cudaMemcpyHostToDevice));
    unsigned *count, *gen, *sink;
    CK(cudaMalloc(&count, 256));
    CK(cudaMalloc(&gen, 256));
    CK(cudaMalloc(&sink, 256));

    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));

    // Copy bandwidth: device-to-device copies of 2 GiB (bytes read + written over time), as the repo counts it.
    const long long cb = 1LL << 30;
    std::vector<float> ct;
    for (int r = 0; r < 7; r++) {
        CK(cudaEventRecord(e0, st));
        CK(cudaMemcpyAsync(buf + cb, buf, cb, cudaMemcpyDeviceToDevice, st));
        CK(cudaEventRecord(e1, st));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        ct.push_back(ms);
    }
    const double copy = 2.0 * cb / (median(ct) * 1e-3) / 1e9;
    const double roof = dram / (copy * 1e9) * 1e6;
    std::printf("device %s, %d SMs; context %d; %d phases; DRAM bytes %lld; copy %.1f GB/s; roofline %.1f us\n",
                prop.name, sms, context, nops, dram, copy, roof);

    // The launch floor: a graph of one programmatic read launch per phase.
    cudaGraphExec_t exec;
    {
        CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
        for (const Op& op : ops) {
            const long long words = op.bytes / 16;
            cudaLaunchConfig_t cfg = {};
            cfg.gridDim = dim3(static_cast<unsigned>(std::max(1LL, std::min<long long>(8LL * sms, (words + 255) / 256))));
            cfg.blockDim = dim3(256);
            cfg.stream = st;
            cudaLaunchAttribute a[1];
            a[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
            a[0].val.programmaticStreamSerializationAllowed = 1;
            cfg.attrs = a;
            cfg.numAttrs = 1;
            CK(cudaLaunchKernelEx(&cfg, stream_read, reinterpret_cast<const uint4*>(op.base), words, sink));
        }
        cudaGraph_t graph;
        CK(cudaStreamEndCapture(st, &graph));
        CK(cudaGraphInstantiate(&exec, graph, 0));
    }

    struct Variant {
        const char* name;
        int mode, kind, chunk, slots;
        bool whole;
    };
    std::vector<Variant> vs = {{"launch", -1, 0, 0, 0, false},         {"read all", -2, 0, 0, 0, true},
                               {"ring all 16k x12", 1, 1, 16384, 12, true}, {"ring all 32k x6", 1, 1, 32768, 6, true},
                               {"bar0", 2, 0, 16384, 12, false},           {"bar1", 2, 1, 16384, 12, false},
                               {"gated 32k x6 bar1", 0, 1, 32768, 6, false}, {"ahead 16k x12 bar0", 1, 0, 16384, 12, false},
                               {"ahead 16k x12 bar1", 1, 1, 16384, 12, false}, {"ahead 32k x6 bar1", 1, 1, 32768, 6, false},
                               {"ahead 64k x3 bar1", 1, 1, 65536, 3, false}};
    CK(cudaFuncSetAttribute(persistent, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024 + 65536 * 3));
    std::vector<std::vector<float>> times(vs.size());
    for (int r = 0; r < rounds + 2; r++) {
        for (size_t v = 0; v < vs.size(); v++) {
            const Variant& x = vs[v];
            CK(cudaMemsetAsync(count, 0, 4, st));
            CK(cudaMemsetAsync(gen, 0, 4, st));
            CK(cudaEventRecord(e0, st));
            if (x.mode == -1) {
                CK(cudaGraphLaunch(exec, st));
            } else if (x.mode == -2) {
                const long long words = dram / 16;
                stream_read<<<8 * sms, 256, 0, st>>>(reinterpret_cast<const uint4*>(buf), words, sink);
            } else {
                const Op* o_ = x.whole ? dwhole : dops;
                int nops_ = x.whole ? 1 : nops, mode = x.mode, kind = x.kind, chunk = x.chunk, slots = x.slots;
                void* args[] = {&o_, &nops_, &chunk, &slots, &mode, &kind, &count, &gen, &sink};
                const size_t sm = 1024 + static_cast<size_t>(chunk) * slots;
                CK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(persistent), dim3(sms), dim3(THREADS), args, sm, st));
            }
            CK(cudaEventRecord(e1, st));
            CK(cudaEventSynchronize(e1));
            float ms;
            CK(cudaEventElapsedTime(&ms, e0, e1));
            if (r >= 2) times[v].push_back(ms * 1e3f);
        }
    }
    std::printf("| variant | median us | p10 us | p90 us | over roofline | vs launch |\n| --- | ---: | ---: | ---: | ---: | ---: |\n");
    const float base = median(times[0]);
    for (size_t v = 0; v < vs.size(); v++) {
        std::vector<float> t = times[v];
        std::sort(t.begin(), t.end());
        const float m = t[t.size() / 2];
        std::printf("| %s | %.1f | %.1f | %.1f | %+.1f %% | %.3f |\n", vs[v].name, m, t[t.size() / 10],
                    t[t.size() * 9 / 10], (m / roof - 1) * 100, m / base);
    }
    unsigned hs = 0;
    CK(cudaMemcpy(&hs, sink, 4, cudaMemcpyDeviceToHost));
    std::printf("sink %08x (0 unless a fold met the key)\n", hs);
    return 0;
}
