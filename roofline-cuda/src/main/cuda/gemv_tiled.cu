// roofline's 4-bit GEMV on weights tiled at upload (INT4 g128, NVFP4, MXFP4 weights x FP16 or BF16 activations,
// mma.sync m16n8k16 of the activations' type, FP32 accumulators): y[M x N] = x[M x K] . W[N x K]^T for M = 1..32,
// N % 16 == 0, K % 128 == 0. The layout is TiledLayout's (roofline-cuda, dev.roofline.cuda.kernels;
// DeviceWeights.uploadForGemv writes it): each lane's 16-byte load is four whole A fragments in the mma's own k order,
// so the weights need no shuffle and x no byte permute, and one scale load per lane serves a whole 128-k step. Against
// gemv_tc's row-major kernels this saves the byte permutes of x and a third of the E2M1 decode's logic ops (the ALU
// pipe, which issues every other cycle, bounds those kernels on an H200), and at M > 1 decodes each A fragment once
// for all of x's fragments.
//
// The layout. Tile t = rows 16t .. 16t + 15, group kg = k 128kg .. 128kg + 127 (INT4's scale group, and one step of a
// warp). Each (tile, group) is 1024 contiguous bytes: two 512-byte halves h, each 32 lanes x 16 bytes; word j of lane
// (g = lane / 4, q = lane % 4) in half h is the whole A fragment of mma i = 4h + j. The mma's k slots of lane q are
// given the physical inputs k = 128kg + 64h + 16q + 4j + c for INT4 and NVFP4 and k = 128kg + 32q + 4i + c for MXFP4
// (c = 0..3 for slots 2q, 2q+1, 2q+8, 2q+9). Lane q's B fragments of mma 2p and 2p + 1 are then its p-th 16-byte load
// of x (p = 0..3): x[128kg + 64(p/2) + 16q + 8(p%2) .. +7], or x[128kg + 32q + 8p .. +7] for MXFP4; b0, b1 of mma i
// are words 2(i%2), 2(i%2)+1 of load i/2, as they lie in memory. With the first the four lanes of an x row read one
// 128-byte line a load (16 bytes at 32-byte steps), with the second two: at 2-16 rows, where x's loads outweigh the
// weights', one line halves the L1 wavefronts of x and made INT4 and NVFP4 1.01-1.18x faster on an H200 at 4-16 rows
// (docs/measurements/2026-11-26-issue20-x-one-line). MXFP4 keeps one 32-k block a lane and step (one scale per row
// and step) instead of two: with two its one-row window lost 2-8 % where it runs, on an H200 and an H100 (same record).
// A word's element e (row g + 8(e%2), c = e/2) goes to fragment
// register p = e%2 + 2(c/2), half c%2 (lower k in the lower half):
//   INT4 : nibble p + 4(c%2), so register p is nibbles (p, p + 4), 16 bits apart: one LOP3 (mask, xor 8, under 0x6400)
//          and one HSUB2 / HFMA2 per register (int4_pair), and one shift (IMAD.HI) per word for p = 2, 3.
//   E2M1 : the code's bits (m, e0, e1, s) at bits {9,10,11,15}, {6,7,8,12}, {0,1,2,13}, {3,4,5,14} of the half (+16 for
//          the upper half) for p = 0..3, so that a left shift by 0, 3, 9, 6 puts (m, e0, e1) at bits 9..11 and one by
//          0, 3, 2, 1 the sign at 15 (value x 2^-14, as gemv_tc decodes): registers 0 and 1 take one logic op each, 2
//          and 3 two. Four translates of {9, 10, 11, 15} cannot tile 16 bits, so no layout decodes all four with one.
// Scales, per (tile, group), as one lane reads them: INT4 float2 {s[g], s[g+8]} per g (8 bytes; lanes of one g read the
// same address); NVFP4 4 bytes per lane {s[g][q], s[g+8][q], s[g][q+4], s[g+8][q+4]} (16-k blocks q for mma 0..3 and
// q + 4 for mma 4..7: lane q's k all lie in these two); MXFP4 2 bytes per lane {s[g][q], s[g+8][q]} (lane q's k lie
// in 32-k block q), then N bytes of each row's largest code, as the row-major MXFP4 scales end.
// Where the scale goes: INT4 on the FP32 partial sums of the step (one group per row per step, exact); NVFP4 and MXFP4
// on A in half (bf16 with BF16 activations), exactly as gemv_tc does, but MXFP4's one-row FP16 step_diag on FP32 sums.
// Measured against gemv_tc on an H200: docs/measurements/2026-11-26-issue20-tiled-h200.
namespace roofline_tiled {
using namespace roofline_gemv;

constexpr int TILE_ROWS = 16, GROUP_K = 128, GROUP_BYTES = 1024; // one (tile, group) of the layout

__device__ __forceinline__ uint32_t lop3_or_and(uint32_t a, uint32_t b, uint32_t c) { // a | (b & c)
    uint32_t r;
    asm("lop3.b32 %0, %1, %2, %3, 0xf8;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}
__device__ __forceinline__ uint32_t and_mask(uint32_t a, uint32_t m) {
    uint32_t r;
    asm("and.b32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(m));
    return r;
}
// the activations' type and gemv.cu's decodes, scales and mma for it
template <Fmt F, bool BF>
using Tc = TcStep<F, std::conditional_t<BF, __nv_bfloat16, __half>, 1>;

// one layout word as the four A registers of its mma: INT4 integers (gemv.cu's pair decode: nibbles p and p + 4 of
// the word, as the layout places them), E2M1 value x 2^-14 (before the block scale); for BF16 activations (BF) bf16
// registers: E2M1 value x 2^-126 with (m, e0, e1) at bits 6..8 of each half, 3 below where the FP16 decode puts them
// (shifts of -3, 0, 6, 3 instead of 0, 3, 9, 6), the sign at 15 as there: one logic op more per register than FP16
// for registers 0 and 1
template <Fmt F, bool BF = false>
__device__ __forceinline__ void decode_word(uint32_t v, uint32_t (&a)[4]) {
    if constexpr (F == Fmt::INT4) {
        a[0] = Tc<F, BF>::template pair<0>(v);
        a[1] = Tc<F, BF>::template pair<1>(v);
        a[2] = Tc<F, BF>::template pair<2>(v);
        a[3] = Tc<F, BF>::template pair<3>(v);
    } else if constexpr (BF) {
        a[0] = lop3_or_and(and_mask(v >> 3, 0x01C001C0u), v, 0x80008000u);
        a[1] = lop3_or_and(and_mask(v, 0x01C001C0u), v * 8u, 0x80008000u);
        a[2] = lop3_or_and(and_mask(v * 64u, 0x01C001C0u), v * 4u, 0x80008000u);
        a[3] = lop3_or_and(and_mask(v * 8u, 0x01C001C0u), v * 2u, 0x80008000u);
    } else {
        a[0] = and_mask(v, 0x8E008E00u);
        a[1] = and_mask(v * 8u, 0x8E008E00u);
        a[2] = lop3_or_and(and_mask(v * 512u, 0x0E000E00u), v * 4u, 0x80008000u);
        a[3] = lop3_or_and(and_mask(v * 64u, 0x0E000E00u), v * 2u, 0x80008000u);
    }
}

// whether lane q's k are 64h + 16q + 4j + c of a group (x read one line a load), not 32q + 4i + c (MXFP4)
template <Fmt F>
inline constexpr bool ONE_LINE = F != Fmt::MXFP4;

template <int MAXM>
inline constexpr int NB_OF = MAXM <= 8 ? 1 : MAXM <= 16 ? 2 : 4; // B fragments: 8 activation rows each

// One 128-k step of T tiles: w[j] = tile j's two 16-byte loads, s[j] its scale entry (INT4: two float bits, NVFP4:
// 4 bytes in .x, MXFP4: 2 bytes in .x), xv[f] = 64 bytes of x of fragment f, rmax (MXFP4) rows g / g + 8's largest code.
// BF: BF16 activations (decode_word's BF16 registers, gemv.cu's BF16 scales and mma). CH: the chains of mma a fragment's
// accumulators go through in a step, 1 (all 8 words in one) or 2 (even and odd words apart, added at the step's end),
// which halves the dependent mma a step waits on for a few more registers and adds.
template <Fmt F, int MAXM, int T, bool BF = false, int CH = 1>
__device__ __forceinline__ void step(const uint4 (&w)[T][2], const uint2 (&s)[T], const uint4 (&xv)[NB_OF<MAXM>][4],
                                     int nf, float (&acc)[T][NB_OF<MAXM>][4], const uint32_t (&rmax)[T][2]) {
    constexpr int NB = NB_OF<MAXM>;
    constexpr bool CHAIN = F != Fmt::INT4;
    using TC = Tc<F, BF>;
    using H2 = typename TC::H2;
    #pragma unroll
    for (int j = 0; j < T; j++) {
        H2 sg[2], sg8[2]; // A multipliers of rows g / g + 8 for mma 0..3 and 4..7
        if constexpr (F == Fmt::NVFP4) {
            const H2 lo = TC::nvfp4_scales(s[j].x & 0xFFFFu), hi = TC::nvfp4_scales(s[j].x >> 16);
            sg[0] = TC::low(lo); sg8[0] = TC::high(lo);
            sg[1] = TC::low(hi); sg8[1] = TC::high(hi);
        } else if constexpr (F == Fmt::MXFP4) {
            sg[0] = sg[1] = TC::mxfp4_scale(s[j].x & 0xFFu, rmax[j][0]);
            sg8[0] = sg8[1] = TC::mxfp4_scale((s[j].x >> 8) & 0xFFu, rmax[j][1]);
        }
        float part[NB][4];
        #pragma unroll
        for (int f = 0; f < NB; f++)
            #pragma unroll
            for (int c = 0; c < 4; c++) part[f][c] = 0.f;
        float (&d)[NB][4] = CHAIN ? acc[j] : part;
        float odd[NB][4]; // CH = 2: the odd words' chain, added to d at the step's end
        if constexpr (CH == 2) {
            #pragma unroll
            for (int f = 0; f < NB; f++)
                #pragma unroll
                for (int c = 0; c < 4; c++) odd[f][c] = 0.f;
        }
        const uint32_t words[8] = {w[j][0].x, w[j][0].y, w[j][0].z, w[j][0].w,
                                   w[j][1].x, w[j][1].y, w[j][1].z, w[j][1].w};
        #pragma unroll
        for (int i = 0; i < 8; i++) {
            uint32_t a[4];
            decode_word<F, BF>(words[i], a);
            if constexpr (F != Fmt::INT4) {
                a[0] = TC::scaled(a[0], sg[i >> 2]);
                a[1] = TC::scaled(a[1], sg8[i >> 2]);
                a[2] = TC::scaled(a[2], sg[i >> 2]);
                a[3] = TC::scaled(a[3], sg8[i >> 2]);
            }
            #pragma unroll
            for (int f = 0; f < NB; f++) {
                if (f >= nf) break;
                const uint4 X = xv[f][i >> 1];
                TC::mma(CH == 2 && (i & 1) ? odd[f] : d[f], a[0], a[1], a[2], a[3], (i & 1) ? X.z : X.x,
                        (i & 1) ? X.w : X.y);
            }
        }
        if constexpr (CH == 2) {
            #pragma unroll
            for (int f = 0; f < NB; f++)
                #pragma unroll
                for (int c = 0; c < 4; c++) d[f][c] += odd[f][c];
        }
        if constexpr (!CHAIN) {
            const float fa = __uint_as_float(s[j].x), fb = __uint_as_float(s[j].y);
            #pragma unroll
            for (int f = 0; f < NB; f++) {
                acc[j][f][0] = fmaf(part[f][0], fa, acc[j][f][0]);
                acc[j][f][2] = fmaf(part[f][2], fb, acc[j][f][2]);
                if constexpr (MAXM > 1) { // at one row only D column 0 (c0, c2 of lanes q = 0) is stored
                    acc[j][f][1] = fmaf(part[f][1], fa, acc[j][f][1]);
                    acc[j][f][3] = fmaf(part[f][3], fb, acc[j][f][3]);
                }
            }
        }
    }
}

// MXFP4's one-row FP16 step with x on the diagonal of B (DG): lane (g, q) holds x in its B fragment only where
// g == q and zeros elsewhere, so that D column n < 4 sums each A row over the k slots of lane quad n alone, which the
// layout puts in 32-k block n of the group for all 8 mma. The step's chain of mma then takes A unscaled (E2M1 x 2^-14)
// and its 4 outputs take their block scales in FP32 once: 8 logic ops and 4 FFMA a step, in place of step()'s half
// multiply of every A register by its scale (32 HMUL2) and the 2 half scales it builds against the row's largest code.
// The sums of lanes q = 0 and 1 (columns 0..3) are the row's; the output takes 2^14.
// The scales s[j].x: {s[g][2q'], s[g + 8][2q'], s[g][2q' + 1], s[g + 8][2q' + 1]}, q' = q % 2, as FP32 2^(E - 127) by
// their bits: code 0 gives 0, not 2^-127, and code 255 (NaN) infinity, so a block of it gives infinities or NaN.
template <int T>
__device__ __forceinline__ void step_diag(const uint4 (&w)[T][2], const uint2 (&s)[T], const uint4 (&xv)[1][4],
                                          float (&acc)[T][1][4]) {
    using TC = Tc<Fmt::MXFP4, false>;
    #pragma unroll
    for (int j = 0; j < T; j++) {
        const uint32_t words[8] = {w[j][0].x, w[j][0].y, w[j][0].z, w[j][0].w,
                                   w[j][1].x, w[j][1].y, w[j][1].z, w[j][1].w};
        float d[4] = {0.f, 0.f, 0.f, 0.f}; // D column n < 4: the step's sums over block n, unscaled
        #pragma unroll
        for (int i = 0; i < 8; i++) {
            uint32_t a[4];
            decode_word<Fmt::MXFP4, false>(words[i], a);
            const uint4 X = xv[0][i >> 1];
            TC::mma(d, a[0], a[1], a[2], a[3], (i & 1) ? X.z : X.x, (i & 1) ? X.w : X.y);
        }
        // D's c0..c3: rows g, g, g + 8, g + 8 of columns 2q', 2q' + 1, 2q', 2q' + 1
        const uint32_t e = s[j].x;
        acc[j][0][0] = fmaf(__uint_as_float((e << 23) & 0x7F800000u), d[0], acc[j][0][0]);
        acc[j][0][1] = fmaf(__uint_as_float((e << 7) & 0x7F800000u), d[1], acc[j][0][1]);
        acc[j][0][2] = fmaf(__uint_as_float((e << 15) & 0x7F800000u), d[2], acc[j][0][2]);
        acc[j][0][3] = fmaf(__uint_as_float((e >> 1) & 0x7F800000u), d[3], acc[j][0][3]);
    }
}

// lane's scale entry of one (tile, group)
template <Fmt F, bool DG = false>
__device__ __forceinline__ uint2 load_scale(const uint8_t* p) {
    if constexpr (F == Fmt::INT4) return __ldg(reinterpret_cast<const uint2*>(p));
    else if constexpr (F == Fmt::NVFP4 || DG) return make_uint2(__ldg(reinterpret_cast<const uint32_t*>(p)), 0u);
    else return make_uint2(__ldg(reinterpret_cast<const unsigned short*>(p)), 0u);
}

// A block of WARPS warps owns T tiles (16T rows); the warps split K (group it goes to warp it % WARPS) and add their
// partial sums in shared memory at the end. ROLL = 0: UNROLL groups of loads per trip, then their steps; ROLL > 0: a
// rolling window, the loads of the warp's step c + ROLL - 1 issued before step c is computed, so ROLL - 1 steps' loads
// stay in flight through each step. N % 16 == 0 and K % 128 == 0 (the host checks); activation rows past M read row 0
// and are not stored. CH: step's chains of mma a fragment; ALL_B: every B fragment computed, whatever M; DG: MXFP4's
// one-row FP16 steps with x on B's diagonal (step_diag); KS: blocks of a cluster (__cluster_dims__(KS, 1, 1), a grid
// of KS blocks per T tiles) that split the tiles' K, KS x WARPS warps, and add their sums through distributed shared
// memory, each block writing every KS-th output.
template <Fmt F, int MAXM, int T, int UNROLL, int WARPS, int ROLL = 0, typename TA = __half, int CH = 1,
          bool ALL_B = false, bool DG = false, int KS = 1>
__device__ __forceinline__ void gemv_tiled(const void* __restrict__ Wv, const void* __restrict__ Sv,
                                        const TA* __restrict__ x, TA* __restrict__ y, int M, int N, int K,
                                        float global) {
    constexpr bool BF = std::is_same_v<TA, __nv_bfloat16>; // BF16 activations
    static_assert(!DG || (F == Fmt::MXFP4 && MAXM == 1 && !BF), "step_diag is MXFP4's one-row FP16 step");
    constexpr int NB = NB_OF<MAXM>;
    constexpr int SB = F == Fmt::INT4 ? 64 : F == Fmt::NVFP4 ? 128 : 64; // scale bytes per (tile, group)
    __shared__ float red[WARPS][T][NB][4][32];
    // MXFP4: each row's largest code for the output scale, as warp 0 holds it from the start. Read again from global
    // memory it would put one more round trip at every block's end, after the last weights arrive; stored to shared
    // memory before the steps it would hold warp 0's first weight loads until its own load arrives.
    __shared__ uint32_t row_emax_s[F == Fmt::MXFP4 ? T : 1][TILE_ROWS];
    if (blockDim.x != WARPS * 32) __trap(); // GemvKernels launches 32 WARPS threads
    roofline_launch::wait_for_previous_kernel();
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, g = lane >> 2, q = lane & 3;
    // KS > 1: a cluster of KS blocks shares the block's tiles (bt), its warps splitting K as one of SW warps (gw)
    const int rank = KS == 1 ? 0 : static_cast<int>(__clusterRelativeBlockRank());
    const int gw = warp + WARPS * rank, bt = blockIdx.x / KS;
    constexpr int SW = WARPS * KS;
    const int G = K / GROUP_K, tiles = N / TILE_ROWS;
    const int m_count = MAXM == 1 ? 1 : M;
    // B fragments computed: those with rows below M, or all of them (ALL_B: a fragment past M reads row 0 and is not
    // stored, where skipping it costs every step its predicates and zeroed x)
    const int nf = NB == 1 || ALL_B ? NB : min(NB, (M + 7) >> 3);
    // DG: lane (g, q) reads the entries of lanes (g, 2q') and (g, 2q' + 1), q' = q % 2
    const int lane_scale = F == Fmt::INT4 ? 8 * g : F == Fmt::NVFP4 ? 4 * lane : DG ? 8 * g + 4 * (q & 1) : 2 * lane;
    const uint8_t* pw[T];
    const uint8_t* ps[T];
    uint32_t rmax[T][2];
    #pragma unroll
    for (int j = 0; j < T; j++) {
        const int t = bt * T + j < tiles ? bt * T + j : 0;
        pw[j] = static_cast<const uint8_t*>(Wv) + (static_cast<size_t>(t) * G + gw) * GROUP_BYTES + 16 * lane;
        ps[j] = static_cast<const uint8_t*>(Sv) + (static_cast<size_t>(t) * G + gw) * SB + lane_scale;
        rmax[j][0] = rmax[j][1] = 0;
        if constexpr (F == Fmt::MXFP4 && !DG) {
            const uint8_t* row_emax = static_cast<const uint8_t*>(Sv) + static_cast<size_t>(N) * (K / 32);
            rmax[j][0] = __ldg(row_emax + TILE_ROWS * t + g);
            rmax[j][1] = __ldg(row_emax + TILE_ROWS * t + g + 8);
        }
    }
    const TA* px[NB];
    #pragma unroll
    for (int f = 0; f < NB; f++) px[f] = x + static_cast<size_t>(8 * f + g < m_count ? 8 * f + g : 0) * K + (ONE_LINE<F> ? 16 : 32) * q + GROUP_K * gw;

    float acc[T][NB][4];
    #pragma unroll
    for (int j = 0; j < T; j++)
        #pragma unroll
        for (int f = 0; f < NB; f++)
            #pragma unroll
            for (int c = 0; c < 4; c++) acc[j][f][c] = 0.f;

    auto advance = [&](int steps) {
        #pragma unroll
        for (int j = 0; j < T; j++) {
            pw[j] += static_cast<size_t>(GROUP_BYTES) * SW * steps;
            ps[j] += SB * SW * steps;
        }
        #pragma unroll
        for (int f = 0; f < NB; f++) px[f] += GROUP_K * SW * steps;
    };
    auto run_step = [&](const uint4 (&wd)[T][2], const uint2 (&sd)[T], const uint4 (&xv)[NB][4]) {
        if constexpr (DG) step_diag<T>(wd, sd, xv, acc);
        else step<F, MAXM, T, BF, CH>(wd, sd, xv, nf, acc, rmax);
    };
    // DG: x of the lanes on the diagonal (g == q), zero on every other lane for the whole kernel
    uint4 xdiag[1][4];
    #pragma unroll
    for (int i = 0; i < 4; i++) xdiag[0][i] = make_uint4(0, 0, 0, 0);
    auto load_x = [&](uint4 (&xv)[NB][4], int u) {
        if constexpr (DG) {
            if (g == q) {
                #pragma unroll
                for (int i = 0; i < 4; i++)
                    xdiag[0][i] = __ldg(reinterpret_cast<const uint4*>(px[0] + GROUP_K * SW * u + 8 * i));
            }
            #pragma unroll
            for (int i = 0; i < 4; i++) xv[0][i] = xdiag[0][i];
        } else {
            #pragma unroll
            for (int f = 0; f < NB; f++)
                #pragma unroll
                for (int i = 0; i < 4; i++)
                    xv[f][i] = f < nf ? __ldg(reinterpret_cast<const uint4*>(px[f] + GROUP_K * SW * u
                                                                      + (ONE_LINE<F> ? 64 * (i >> 1) + 8 * (i & 1) : 8 * i)))
                                       : make_uint4(0, 0, 0, 0);
        }
    };
    if constexpr (ROLL > 0) {
        const int n = gw < G ? (G - gw + SW - 1) / SW : 0; // this warp's steps
        uint4 w[ROLL][T][2];
        uint2 s[ROLL][T];
        auto load = [&](uint4 (&wd)[T][2], uint2 (&sd)[T], int c) {
            #pragma unroll
            for (int j = 0; j < T; j++) {
                wd[j][0] = load_stream<0>(pw[j] + static_cast<size_t>(c) * GROUP_BYTES * SW);
                wd[j][1] = load_stream<0>(pw[j] + static_cast<size_t>(c) * GROUP_BYTES * SW + 512);
                sd[j] = load_scale<F, DG>(ps[j] + static_cast<size_t>(c) * SB * SW);
            }
        };
        #pragma unroll
        for (int d = 0; d < ROLL - 1; d++)
            if (d < n) load(w[d], s[d], d);
        for (int i = 0; i < n; i += ROLL) {
            #pragma unroll
            for (int d = 0; d < ROLL; d++) { // slot d holds step i + d; slot (d + ROLL - 1) % ROLL was used by step i + d - 1
                const int c = i + d;
                if (c < n) {
                    if (c + ROLL - 1 < n) load(w[(d + ROLL - 1) % ROLL], s[(d + ROLL - 1) % ROLL], c + ROLL - 1);
                    uint4 xv[NB][4];
                    load_x(xv, c);
                    run_step(w[d], s[d], xv);
                }
            }
        }
    }
    int it = ROLL > 0 ? G : gw;
    for (; it + SW * (UNROLL - 1) < G; it += SW * UNROLL) {
        uint4 w[UNROLL][T][2];
        uint2 s[UNROLL][T];
        #pragma unroll
        for (int u = 0; u < UNROLL; u++)
            #pragma unroll
            for (int j = 0; j < T; j++) {
                w[u][j][0] = load_stream<0>(pw[j] + GROUP_BYTES * SW * u);
                w[u][j][1] = load_stream<0>(pw[j] + GROUP_BYTES * SW * u + 512);
                s[u][j] = load_scale<F, DG>(ps[j] + SB * SW * u);
            }
        #pragma unroll
        for (int u = 0; u < UNROLL; u++) {
            uint4 xv[NB][4];
            load_x(xv, u);
            run_step(w[u], s[u], xv);
        }
        advance(UNROLL);
    }
    for (; it < G; it += SW) { // at most UNROLL - 1 groups per warp
        uint4 w[T][2];
        uint2 s[T];
        #pragma unroll
        for (int j = 0; j < T; j++) {
            w[j][0] = load_stream<0>(pw[j]);
            w[j][1] = load_stream<0>(pw[j] + 512);
            s[j] = load_scale<F, DG>(ps[j]);
        }
        uint4 xv[NB][4];
        load_x(xv, 0);
        run_step(w, s, xv);
        advance(1);
    }
    if constexpr (DG) { // rows g and g + 8: blocks 2q' and 2q' + 1 of lanes q = 0 and 1, into c = 0 and 2 of lane q = 0
        #pragma unroll
        for (int j = 0; j < T; j++) {
            const float r0 = acc[j][0][0] + acc[j][0][1], r8 = acc[j][0][2] + acc[j][0][3];
            acc[j][0][0] = r0 + __shfl_xor_sync(0xFFFFFFFFu, r0, 1);
            acc[j][0][2] = r8 + __shfl_xor_sync(0xFFFFFFFFu, r8, 1);
        }
    }
    #pragma unroll
    for (int j = 0; j < T; j++) {
        #pragma unroll
        for (int f = 0; f < NB; f++)
            #pragma unroll
            for (int c = 0; c < 4; c++) red[warp][j][f][c][lane] = acc[j][f][c];
        if constexpr (F == Fmt::MXFP4 && !DG)
            if (warp == 0 && q == 0) {
                row_emax_s[j][g] = rmax[j][0];
                row_emax_s[j][g + 8] = rmax[j][1];
            }
    }
    __syncthreads();
    if constexpr (KS > 1) { // every block's sums in its shared memory before any is read
        __cluster_barrier_arrive();
        __cluster_barrier_wait();
    }
    // NVFP4: FP16 2^-14 (e2m1) x 2^6 (scale) = 2^-8; BF16 2^-126 x 2^119 = 2^-7
    const float out_scale = F == Fmt::NVFP4 ? global * (BF ? 128.f : 256.f) : 1.f;
    for (int e = threadIdx.x + WARPS * 32 * rank; e < T * NB * 4 * 32; e += SW * 32) {
        const int j = e / (NB * 128), f = (e / 128) % NB, c = (e / 32) & 3, l = e & 31;
        const int tile_row = (l >> 2) + 8 * (c >> 1), row = (bt * T + j) * TILE_ROWS + tile_row;
        const int m = 8 * f + 2 * (l & 3) + (c & 1);
        if (m < m_count && row < N) {
            float v = 0.f;
            #pragma unroll
            for (int r = 0; r < KS; r++) {
                const float(*rr)[T][NB][4][32] =
                    KS == 1 ? red : static_cast<const float(*)[T][NB][4][32]>(__cluster_map_shared_rank(red, r));
                #pragma unroll
                for (int ww = 0; ww < WARPS; ww++) v += rr[ww][j][f][c][l];
            }
            // MXFP4: FP16 2^(Emax - 128) = 2^(Emax - 127) x 2^14 (e2m1) x 2^-15 (e8m0_rel_half2); BF16 2^(Emax - 120)
            // = 2^(Emax - 127) x 2^126 (e2m1) x 2^-119 (e8m0_rel_bf16x2), its 2^7 applied to v first: 2^(Emax - 120)
            // overflows FP32 from Emax = 248
            if constexpr (DG) {
                v *= 16384.f; // A = E2M1 x 2^-14, the block scales applied in FP32 (step_diag)
            } else if constexpr (F == Fmt::MXFP4) {
                const float e = e8m0_to_float(row_emax_s[j][tile_row]);
                v = BF ? (v * 128.f) * e : v * (e * 0.5f);
            } else {
                v *= out_scale;
            }
            y[static_cast<size_t>(m) * N + row] = from_float<TA>(v);
        }
    }
    if constexpr (KS > 1) { // no block leaves while another may still read its shared memory
        __cluster_barrier_arrive();
        __cluster_barrier_wait();
    }
}

} // namespace roofline_tiled

// _m<rows bound>: 1, 8, 16, 32 (GemvKernels.rowsBound); T tiles per block (16T rows), UNR steps of loads per trip,
// 8 warps splitting K. At one row one tile a block: NVFP4 and MXFP4 capped at 48 registers (5 blocks per SM, as
// gemv_tc's NVFP4) with 2 steps in flight, INT4 with 4 (under the cap it spills). Up to 8 rows one tile with 4 steps in
// flight; at 16 rows two tiles a block, which halves the x loads per weight byte (each block reads all of x, 4 KB per
// 1 KB of one tile's weights a step at 16 rows), with 1 step in flight; at 32 rows one tile, as x's four fragments and
// their accumulators take the registers two tiles would. The fastest of 4 to 6 configurations each on an H200
// (docs/measurements/2026-11-26-issue20-tiled-h200). gemv_<fmt>_bf16_m<rows bound>_tiled: the same blocks with BF16
// activations, all with plain bounds (their one-row kernels take 32-42 registers on sm_90a uncapped).
// BOUNDS: the kernel's attributes, __launch_bounds__ and, where KS > 1, __cluster_dims__(KS, 1, 1); WARPS: a block's
// warps (8 but for INT4's one-row _w2)
#define ROOFLINE_GEMV_TILED_KERNEL(name, TA, FMT, MAXM, T, UNR, WARPS, ROLL, CH, ALL_B, DG, KS, BOUNDS)              \
    extern "C" __global__ void BOUNDS name(const void* W, const void* scales, const TA* x, TA* y, int M, int N,       \
                                          int K, float global, GemvEpilogue) {                                        \
        roofline_tiled::gemv_tiled<Fmt::FMT, MAXM, T, UNR, WARPS, ROLL, TA, CH, ALL_B, DG, KS>(W, scales, x, y, M, N, \
                                                                                              K, global);            \
    }
#define ROOFLINE_GEMV_TILED_NAMED_TCD(name, TA, FMT, MAXM, T, UNR, ROLL, CH, ALL_B, DG, KS, BOUNDS) \
    ROOFLINE_GEMV_TILED_KERNEL(name, TA, FMT, MAXM, T, UNR, 8, ROLL, CH, ALL_B, DG, KS, BOUNDS)
#define ROOFLINE_GEMV_TILED_NAMED_TC(name, TA, FMT, MAXM, T, UNR, ROLL, CH, ALL_B, BOUNDS) \
    ROOFLINE_GEMV_TILED_NAMED_TCD(name, TA, FMT, MAXM, T, UNR, ROLL, CH, ALL_B, false, 1, BOUNDS)
#define ROOFLINE_GEMV_TILED_NAMED_T(name, TA, FMT, MAXM, T, UNR, ROLL, BOUNDS) \
    ROOFLINE_GEMV_TILED_NAMED_TC(name, TA, FMT, MAXM, T, UNR, ROLL, 1, false, BOUNDS)
#define ROOFLINE_GEMV_TILED_NAMED(name, FMT, MAXM, T, UNR, ROLL, BOUNDS) \
    ROOFLINE_GEMV_TILED_NAMED_T(name, __half, FMT, MAXM, T, UNR, ROLL, BOUNDS)
#define ROOFLINE_GEMV_TILED(FMT, fmt, MAXM, T, UNR, BOUNDS) \
    ROOFLINE_GEMV_TILED_NAMED(gemv_##fmt##_f16_m##MAXM##_tiled, FMT, MAXM, T, UNR, 0, BOUNDS)
#define ROOFLINE_GEMV_TILED_BF16(FMT, fmt, MAXM, T, UNR, BOUNDS) \
    ROOFLINE_GEMV_TILED_NAMED_T(gemv_##fmt##_bf16_m##MAXM##_tiled, __nv_bfloat16, FMT, MAXM, T, UNR, 0, BOUNDS)
#define ROOFLINE_GEMV_TILED_FORMAT(FMT, fmt, UNR1, BOUNDS1, INT4_16, BF16_ALL_B) \
    ROOFLINE_GEMV_TILED(FMT, fmt, 1, 1, UNR1, BOUNDS1)                   \
    ROOFLINE_GEMV_TILED(FMT, fmt, 8, 1, 4, __launch_bounds__(256))       \
    ROOFLINE_GEMV_TILED_NAMED_TC(gemv_##fmt##_f16_m16_tiled, __half, FMT, 16, 2, 1, 0, INT4_16 ? 2 : 1, INT4_16,      \
                                 __launch_bounds__(256))                 \
    ROOFLINE_GEMV_TILED(FMT, fmt, 32, 1, 1, __launch_bounds__(256))      \
    ROOFLINE_GEMV_TILED_BF16(FMT, fmt, 1, 1, UNR1, __launch_bounds__(256)) \
    ROOFLINE_GEMV_TILED_BF16(FMT, fmt, 8, 1, 4, __launch_bounds__(256))  \
    ROOFLINE_GEMV_TILED_NAMED_TC(gemv_##fmt##_bf16_m16_tiled, __nv_bfloat16, FMT, 16, 2, 1, 0, 1, BF16_ALL_B,        \
                                 __launch_bounds__(256))                 \
    ROOFLINE_GEMV_TILED_BF16(FMT, fmt, 32, 1, 1, __launch_bounds__(256))
// INT4_16: INT4's FP16 16-row kernel runs two chains of mma a fragment (step's CH = 2), 1.01-1.05x faster than one at
// seven shapes on an H200, and computes both B fragments at every M (ALL_B: GemvKernels gives it 9 to 16 rows), a
// further 1.11-1.20x at 12 and 16 rows. NVFP4's and MXFP4's 16-row kernels were slower with either (two chains
// 0.95-1.06x, both fragments 0.74-1.01x, NVFP4 then at 3 blocks an SM), as were every format's 1- and 8-row kernels
// with two chains (0.86-1.06x) (docs/measurements/2026-11-26-issue20-m16-ring-h200, runs 8 and 12).
// NVFP4 and MXFP4 at 9 to 16 rows on grids of at most one block (2 tiles) an SM and rows of at least 8192
// (GemvKernels.splitsK): each block's K split over a cluster of 2 (gemv_tiled's KS = 2), the two blocks' sums added
// through distributed shared memory, so that twice the blocks stream the same bytes. On an H200 at 12 and 16 rows 1.12-1.43x the one-block kernel
// at eight shapes of 32 to 132 blocks, 0.97-1.02x at 136 and 0.88-0.93x at 160; INT4's was 0.89-0.98x at those eight;
// on an H100 0.95-0.99x at 4096^2 (docs/measurements/2026-11-27-issue20-m16-cluster-split-h200).
ROOFLINE_GEMV_TILED_NAMED_TCD(gemv_nvfp4_f16_m16_tiled_k2, __half, NVFP4, 16, 2, 1, 0, 1, false, false, 2,
                              __cluster_dims__(2, 1, 1) __launch_bounds__(256))
ROOFLINE_GEMV_TILED_NAMED_TCD(gemv_mxfp4_f16_m16_tiled_k2, __half, MXFP4, 16, 2, 1, 0, 1, false, false, 2,
                              __cluster_dims__(2, 1, 1) __launch_bounds__(256))
// The same split at one row, on the same grids (at most 2 tiles an SM) and rows: NVFP4's kernel capped at 4 blocks an
// SM and MXFP4's diagonal one, each with K split over a cluster of 2. On an H200 1.04-1.17x the shipped one-row kernels
// at 2048x8192, 4096x14336 and 4096x28672, 0.86-1.02x at K = 4096 and 0.64-0.82x from 384 blocks
// (docs/measurements/2026-11-27-issue20-m16-cluster-split-h200, runs 6-8).
ROOFLINE_GEMV_TILED_NAMED_TCD(gemv_nvfp4_f16_m1_tiled_k2, __half, NVFP4, 1, 1, 4, 0, 1, false, false, 2,
                              __cluster_dims__(2, 1, 1) __launch_bounds__(256, 4))
ROOFLINE_GEMV_TILED_NAMED_TCD(gemv_mxfp4_f16_m1_tiled_k2, __half, MXFP4, 1, 1, 4, 0, 1, false, true, 2,
                              __cluster_dims__(2, 1, 1) __launch_bounds__(256, 4))
// NVFP4 at 9 to 16 rows on grids of at most 3 tiles an SM and rows shorter than 8192 (GemvKernels.NVFP4_M16_FEW_BLOCKS),
// where the two-tile kernel leaves SMs idle or with one block: one tile a block, 2 steps of loads a trip, capped at 3
// blocks an SM (80 registers on sm_90a). On an H200 at 12 and 16 rows 1.15-1.45x the two-tile kernel at 64 to 384
// tiles and K = 4096, 0.75x at 512 (8192^2); the Llama-3-8B NVFP4 batch-16 step 1.9 % faster. INT4's of one tile at 4
// blocks an SM was 1.07-1.16x there timed alone but made the INT4 step 0.7 % slower, so INT4 has none
// (docs/measurements/2026-11-27-issue20-m16-waves-h200, runs 5-7).
ROOFLINE_GEMV_TILED_NAMED_TC(gemv_nvfp4_f16_m16_tiled_b3, __half, NVFP4, 16, 1, 2, 0, 1, false,
                             __launch_bounds__(256, 3))
// BF16_ALL_B: MXFP4's BF16 16-row kernel computes both B fragments at every M as well: 1.06-1.41x on an H200 and
// 1.06-1.34x on an H100 over the seven shapes, where INT4's and NVFP4's BF16 kernels were 0.89-1.01x with it
// (docs/measurements/2026-11-26-issue20-m16-ring-h200, runs 15-16 and 12).
ROOFLINE_GEMV_TILED_FORMAT(INT4, int4, 4, __launch_bounds__(256), true, false)
ROOFLINE_GEMV_TILED_FORMAT(NVFP4, nvfp4, 2, __launch_bounds__(256, 5), false, false)
ROOFLINE_GEMV_TILED_FORMAT(MXFP4, mxfp4, 2, __launch_bounds__(256, 5), false, true)
// At one row a rolling window of 2 steps (the next step's loads in flight through each step) where the grid leaves an
// SM too few blocks to overlap one block's loads with another's steps (GemvKernels.tiledLaunch): INT4 up to one wave of
// its blocks and on larger grids whose last wave it fills best (GemvKernels.INT4_M1_WAVES), MXFP4 up to 3 blocks an SM
// (docs/design/gemv-kernels.md#tiled-layout-4-bit--fp16). ptxas gives them 55 and 61 registers on sm_90a, so 4 blocks
// fit an SM (GemvKernels.INT4_M1_WINDOW, MXFP4_M1_WINDOW); capped at 5 blocks an SM they were slower. NVFP4 has none:
// its window was no faster, beyond noise, at any shape measured.
ROOFLINE_GEMV_TILED_NAMED(gemv_int4_f16_m1_tiled_r2, INT4, 1, 1, 1, 2, __launch_bounds__(256))
ROOFLINE_GEMV_TILED_NAMED(gemv_mxfp4_f16_m1_tiled_r2, MXFP4, 1, 1, 1, 2, __launch_bounds__(256))
// INT4 at one row on grids of at most 2 blocks an SM (GemvKernels.INT4_M1_FEW_BLOCKS, tried before the window): the
// plain kernel's 4 steps of loads a trip capped at 3 blocks an SM, where ptxas keeps all four steps' loads in flight
// (80 registers on sm_90a; uncapped it takes 46 and holds fewer). Against the window of 2 at up to 1.9 blocks an SM
// 1.09-1.35x on an H200 and 1.06-1.28x on an H100; at 2.9 0.98x on the H100
// (docs/measurements/2026-11-27-issue20-int4-one-row-h200).
ROOFLINE_GEMV_TILED_NAMED(gemv_int4_f16_m1_tiled_b3, INT4, 1, 1, 4, 0, __launch_bounds__(256, 3))
// INT4 at one row with 2 warps a tile, each with a rolling window of 3 steps (blocks of 64 threads, 63 registers on
// sm_90a: 16 blocks an SM), one of the kernels GemvKernels.INT4_M1_WAVES picks from by the fill of their last wave on
// grids above one wave of the window of 2: at 1792 blocks on an H200 1.04-1.05x the plain kernel
// (docs/measurements/2026-11-27-issue20-int4-last-wave-h200, runs 1-2).
ROOFLINE_GEMV_TILED_KERNEL(gemv_int4_f16_m1_tiled_w2, __half, INT4, 1, 1, 1, 2, 3, 1, false, false, 1,
                           __launch_bounds__(64))
// NVFP4 at one row on grids of at most 4 blocks an SM (GemvKernels.NVFP4_M1_FEW_BLOCKS): 4 steps of loads a trip
// capped at 4 blocks an SM, where the plain kernel takes 2 at 5. 1.03-1.15x the plain kernel on an H200 and
// 1.01-1.13x on an H100 at seven shapes of 128 to 512 blocks, 0.95x at 1792 blocks on the H100
// (docs/measurements/2026-11-27-issue20-int4-one-row-h200, runs 5-6).
ROOFLINE_GEMV_TILED_NAMED(gemv_nvfp4_f16_m1_tiled_b4, NVFP4, 1, 1, 4, 0, __launch_bounds__(256, 4))
// MXFP4 at one row on grids of 2 to 4 blocks an SM (GemvKernels.MXFP4_M1_DIAGONAL): step_diag with 4 steps of loads
// a trip, capped at 4 blocks an SM (64 registers on sm_90a). On an H200 1.06-1.07x the fastest shipped kernel at 384 and
// 512 blocks, 0.96-0.97x at 1792 and 0.955-1.03x at up to 256, where the window of 2 keeps them
// (docs/measurements/2026-11-27-issue20-mxfp4-diagonal-h200).
ROOFLINE_GEMV_TILED_NAMED_TCD(gemv_mxfp4_f16_m1_tiled_dg, __half, MXFP4, 1, 1, 4, 0, 1, false, true, 1,
                              __launch_bounds__(256, 4))
// From 2 to 8 rows a window of 3 for INT4 and MXFP4 (ptxas: 79 and 64 registers on sm_90a, so 3 and 4 blocks fit an
// SM), for grids of at most 2 blocks an SM whose warps take at least 8 steps (GemvKernels.M8_WINDOW). NVFP4 has
// none: at those grids its window was slower in some cases (docs/design/gemv-kernels.md#tiled-layout-4-bit--fp16).
ROOFLINE_GEMV_TILED_NAMED(gemv_int4_f16_m8_tiled_r3, INT4, 8, 1, 1, 3, __launch_bounds__(256))
ROOFLINE_GEMV_TILED_NAMED(gemv_mxfp4_f16_m8_tiled_r3, MXFP4, 8, 1, 1, 3, __launch_bounds__(256))
// From 5 to 8 rows two tiles a block for MXFP4 where the grid is large and DRAM fast for the SMs
// (GemvKernels.tiledLaunch): each x load then serves two tiles' weights, which halves the x bytes a block reads from L2
// per weight byte (8 rows of x are twice the weights' bytes a step at one tile); 4 steps of loads a trip (72 registers
// on sm_90a). INT4 and NVFP4, whose lanes read x one line a load, have none: one tile was 1.04-1.06x faster at 28672
// rows and NVFP4's pairs at most 1.5 % faster at 8192.
ROOFLINE_GEMV_TILED_NAMED(gemv_mxfp4_f16_m8_tiled_t2, MXFP4, 8, 2, 4, 0, __launch_bounds__(256))
