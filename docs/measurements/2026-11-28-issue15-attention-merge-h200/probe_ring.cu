// Issue 15 probe: the attention split pass's streaming alone (no products), with its chunks as the shipped pass takes
// them (split s: the contiguous tokens [s * chunk, (s + 1) * chunk) of its KV head, keys then values) or strided by
// tile (split s: the head's 8 KiB tiles s, s + splits, s + 2 splits, ..., keys then values), so that the blocks in
// flight at once read one window of neighbouring tiles per head instead of one tile per chunk. Each block copies its
// tiles through a ring of 3 shared-memory slots by cp.async (16 bytes a thread a piece, 2 tiles in flight), waits and
// meets at a barrier per tile as the split pass does, and folds a word of each tile into a sink. Beside one read of
// the same bytes (stream_read); graphed, 20 launches, median of 9 replays, L2-cold over 4 KV sets.
#include "gemv.cu"
#include <algorithm>
#include <cstdio>
#include <vector>
#define CK(x)                                                                                                          \
    do {                                                                                                               \
        cudaError_t e = (x);                                                                                           \
        if (e != cudaSuccess) {                                                                                        \
            printf("ERR %s: %s at %d\n", #x, cudaGetErrorString(e), __LINE__);                                        \
            exit(1);                                                                                                   \
        }                                                                                                              \
    } while (0)

constexpr int TB = 8192; // tile bytes

// keys at kv, values at kv + heads * capacity * row_bytes; chunk in tokens (contiguous), tile tokens = TB / row_bytes
template <bool STRIDED>
__global__ void __launch_bounds__(128, 5)
    ring_read(const unsigned char* kv, int heads, int capacity, int row_bytes, int len, int splits, int chunk,
              unsigned* sink) {
    __shared__ __align__(128) unsigned char s_tiles[3][TB];
    roofline_launch::wait_for_previous_kernel_only();
    const int h = blockIdx.x / splits, s = blockIdx.x - h * splits;
    const int tile_tokens = TB / row_bytes;
    const size_t head = (size_t)h * capacity * row_bytes;
    const size_t vbase = (size_t)heads * capacity * row_bytes;
    int kt;      // key tiles of this split
    int last_b;  // bytes of its last tile
    if (STRIDED) {
        const int th = (len + tile_tokens - 1) / tile_tokens;
        kt = s < th ? (th - s + splits - 1) / splits : 0;
        const int lt = s + (kt - 1) * splits;
        last_b = lt == th - 1 ? (len - lt * tile_tokens) * row_bytes : TB;
    } else {
        const int begin = s * chunk, n = min(begin + chunk, len) - begin;
        kt = n > 0 ? (n + tile_tokens - 1) / tile_tokens : 0;
        last_b = (n - (kt - 1) * tile_tokens) * row_bytes;
    }
    const int tiles = 2 * kt;
    auto src_of = [&](int i) -> const unsigned char* {
        const int j = i < kt ? i : i - kt;
        const size_t off = STRIDED ? (size_t)(s + j * splits) * TB : (size_t)s * chunk * row_bytes + (size_t)j * TB;
        return kv + (i < kt ? 0 : vbase) + head + off;
    };
    auto issue = [&](int i) {
        if (i < tiles) {
            const int j = i < kt ? i : i - kt;
            const int bytes = j == kt - 1 ? last_b : TB;
            const unsigned char* src = src_of(i);
            unsigned char* dst = s_tiles[i % 3];
#pragma unroll
            for (int c = 0; c < TB / 16 / 128; c++) {
                const int off = (c * 128 + threadIdx.x) * 16;
                if (off < bytes) {
                    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem_address(dst + off)),
                                 "l"(src + off)
                                 : "memory");
                }
            }
        }
        asm volatile("cp.async.commit_group;" ::: "memory");
    };
    issue(0);
    issue(1);
    unsigned acc = 0;
    for (int i = 0; i < tiles; i++) {
        asm volatile("cp.async.wait_group 1;" ::: "memory");
        __syncthreads();
        issue(i + 2);
        acc ^= reinterpret_cast<const unsigned*>(s_tiles[i % 3])[threadIdx.x];
    }
    if (acc == 0x12345678u) sink[0] = acc;
    roofline_launch::let_next_kernel_launch();
}

static int sms;
template <typename... A, typename... P>
static void launch(void (*k)(P...), int grid, int threads, cudaStream_t st, A... a) {
    cudaLaunchConfig_t c = {};
    c.gridDim = grid;
    c.blockDim = threads;
    c.stream = st;
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at[0].val.programmaticStreamSerializationAllowed = 1;
    c.attrs = at;
    c.numAttrs = 1;
    CK(cudaLaunchKernelEx(&c, k, a...));
}

int main() {
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    int rocc = 0, occ = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&rocc, stream_read, 256, 0));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, ring_read<true>, 128, 0));
    printf("sms %d ring blocks/SM %d\n", sms, occ);
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    const int G = 8, SETS = 4;
    struct Cfg {
        int B, L, row;
    } cfgs[] = {{1, 8192, 128}, {1, 16384, 128}, {1, 32768, 128}, {1, 8192, 256}, {1, 16384, 256}, {8, 8192, 128},
                {8, 32768, 128}};
    for (auto cf : cfgs) {
        const int heads = cf.B * G, L = cf.L, row = cf.row;
        const size_t bytes = (size_t)heads * L * row * 2;
        std::vector<unsigned char*> kv(SETS);
        for (auto& p : kv) {
            CK(cudaMalloc(&p, bytes));
            CK(cudaMemset(p, 1, bytes));
        }
        unsigned* sink;
        CK(cudaMalloc(&sink, 64));
        // DecodeKernels.attentionChunk for groups of 4 (512-token chunks at most)
        long slots = (long)sms * 5, fewest = (L + 511) / 512, waves = (heads * fewest + slots - 1) / slots;
        long splits = std::max(fewest, waves * slots / heads);
        long chunk = std::min(512L, std::max(32L, ((L + splits - 1) / splits + 15) / 16 * 16));
        const int sp = (L + chunk - 1) / chunk;
        const int words = (int)(bytes / 16);
        const int rgrid = std::min((long)sms * std::min(rocc, 8), (long)(words + 255) / 256);
        const int N = 20;
        auto graph = [&](int mode) {
            cudaGraph_t gr;
            cudaGraphExec_t ge;
            CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
            for (int i = 0; i < N; i++) {
                const unsigned char* p = kv[i % SETS];
                if (mode == 0) launch(stream_read, rgrid, 256, st, (const uint4*)p, words, 0x9e3779b9u, sink);
                else if (mode == 1) launch(ring_read<false>, heads * sp, 128, st, p, heads, L, row, L, sp, (int)chunk, sink);
                else launch(ring_read<true>, heads * sp, 128, st, p, heads, L, row, L, sp, (int)chunk, sink);
            }
            CK(cudaStreamEndCapture(st, &gr));
            CK(cudaGraphInstantiate(&ge, gr, 0));
            for (int w = 0; w < 3; w++) CK(cudaGraphLaunch(ge, st));
            CK(cudaStreamSynchronize(st));
            cudaEvent_t a, ev;
            cudaEventCreate(&a);
            cudaEventCreate(&ev);
            std::vector<float> t;
            for (int r = 0; r < 9; r++) {
                cudaEventRecord(a, st);
                CK(cudaGraphLaunch(ge, st));
                cudaEventRecord(ev, st);
                CK(cudaEventSynchronize(ev));
                float ms;
                cudaEventElapsedTime(&ms, a, ev);
                t.push_back(ms * 1000 / N);
            }
            std::sort(t.begin(), t.end());
            cudaGraphExecDestroy(ge);
            cudaGraphDestroy(gr);
            return t[t.size() / 2];
        };
        float tm[2][3];
        for (int r = 0; r < 2; r++)
            for (int m = 0; m < 3; m++) tm[r][m] = graph(m);
        printf("B=%2d L=%6d row %3d MB %7.2f splits %3d chunk %3ld | read %7.2f %7.2f | chunked ring %7.2f %7.2f | "
               "strided ring %7.2f %7.2f | chunked/read %.3f strided/read %.3f strided/chunked %.3f %.3f\n",
               cf.B, L, row, bytes / 1e6, sp, chunk, tm[0][0], tm[1][0], tm[0][1], tm[1][1], tm[0][2], tm[1][2],
               tm[0][1] / tm[0][0], tm[0][2] / tm[0][0], tm[0][2] / tm[0][1], tm[1][2] / tm[1][1]);
        fflush(stdout);
        for (auto p : kv) cudaFree(p);
        cudaFree(sink);
    }
    return 0;
}
