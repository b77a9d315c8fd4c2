package dev.roofline.cuda.kernels;

import java.util.Objects;

/**
 * The weight layout of the tiled 4-bit GEMV kernels ({@code gemv_tiled.cu}): the bytes roofline-quant writes (row n
 * holds the K inputs of output n, element 2i in the low nibble; INT4 scales {@code float[N][K/128]}, NVFP4
 * {@code e4m3[N][K/16]}, MXFP4 {@code e8m0[N][K/32]}) rearranged so that each lane's 16-byte load is four whole
 * {@code mma.m16n8k16} A fragments in the mma's own k order and one scale load serves a lane's whole 128-k step.
 * {@link DeviceWeights#uploadForGemv} writes it; the same number of bytes as the row-major layout, and every byte of
 * it comes back ({@link #rowMajorWeights}, {@link #rowMajorScales}).
 *
 * <p>Tile t = rows 16t…16t+15, group g = k 128g…128g+127; each (tile, group) is 1024 contiguous bytes, tiles outer.
 * Word w (4 bytes, little-endian) of a (tile, group) is half h = w / 128, lane l = (w / 4) % 32, j = w % 4; with
 * r = l / 4, q = l % 4, its element e = 0…7 is row 16t + r + 8(e % 2) at k = 128g + 64h + 16q + 4j + e / 2 (INT4,
 * NVFP4) or k = 128g + 32q + 16h + 4j + e / 2 (MXFP4),
 * and bit b of that element's code sits at bit {@code 4(p + 4c) + b} (INT4) or {@code 16c + E2M1[p][b]} (E2M1), where
 * c = (e / 2) % 2, p = e % 2 + 2(e / 4) and E2M1 = {{9, 10, 11, 15}, {6, 7, 8, 12}, {0, 1, 2, 13}, {3, 4, 5, 14}}: the
 * places from which the kernels' decode (one mask and at most one shift per pair of weights) builds FP16 halves.
 * With the first, lane q's loads of x read 16 bytes each at k = 128g + 64(p / 2) + 16q + 8(p % 2) for p = 0…3, so the
 * four lanes of a row read one 128-byte line a load; MXFP4 keeps one 32-k block a lane and step (gemv_tiled.cu's header
 * says why each).
 * Scales per (tile, group), in lane order: INT4 the floats {s[r][g], s[r+8][g]} for r = 0…7; NVFP4 for each lane the
 * bytes {s[r][8g+q], s[r+8][8g+q], s[r][8g+q+4], s[r+8][8g+q+4]}; MXFP4 {s[r][4g+q], s[r+8][4g+q]} (rows relative to
 * the tile). MXFP4's row maxima ({@link DeviceWeights#deviceScales}) follow unchanged.
 */
public final class TiledLayout {
    /** Rows of one tile: a layout's rows must be a multiple. */
    public static final int TILE_ROWS = 16;
    /** Inputs of one group: a layout's columns must be a multiple. */
    public static final int GROUP_K = 128;

    private static final int GROUP_BYTES = TILE_ROWS * GROUP_K / 2;
    private static final int[][] E2M1_BITS = {{9, 10, 11, 15}, {6, 7, 8, 12}, {0, 1, 2, 13}, {3, 4, 5, 14}};
    private static final Tables INT4_TABLES = new Tables(false);
    private static final Tables E2M1_TABLES = new Tables(true);

    private TiledLayout() {}

    /** Whether {@code format} weights of {@code rows × cols} have this layout: a 4-bit format, rows % 16, cols % 128. */
    public static boolean supports(WeightFormat format, int rows, int cols) {
        Objects.requireNonNull(format, "format");
        return format.isFourBit() && rows > 0 && cols > 0 && rows % TILE_ROWS == 0 && cols % GROUP_K == 0;
    }

    /** The row-major {@code weights} of a {@code rows × cols} matrix in this layout. */
    public static byte[] weights(WeightFormat format, int rows, int cols, byte[] weights) {
        check(format, rows, cols, "weights", weights, format.weightBytes(rows, cols));
        Tables t = tables(format);
        byte[] out = new byte[weights.length];
        forEachWord(format, rows, cols, (at, row0, row8) -> {
            int word = t.toWord[0][pair(weights, row0)] | t.toWord[1][pair(weights, row8)];
            out[at] = (byte) word;
            out[at + 1] = (byte) (word >>> 8);
            out[at + 2] = (byte) (word >>> 16);
            out[at + 3] = (byte) (word >>> 24);
        });
        return out;
    }

    /** The row-major weights of a {@code rows × cols} matrix from {@code tiled}, its bytes in this layout. */
    public static byte[] rowMajorWeights(WeightFormat format, int rows, int cols, byte[] tiled) {
        check(format, rows, cols, "tiled weights", tiled, format.weightBytes(rows, cols));
        Tables t = tables(format);
        byte[] out = new byte[tiled.length];
        forEachWord(format, rows, cols, (at, row0, row8) -> {
            int bits = t.fromByte[0][tiled[at] & 0xFF]
                    | t.fromByte[1][tiled[at + 1] & 0xFF]
                    | t.fromByte[2][tiled[at + 2] & 0xFF]
                    | t.fromByte[3][tiled[at + 3] & 0xFF];
            out[row0] = (byte) bits;
            out[row0 + 1] = (byte) (bits >>> 8);
            out[row8] = (byte) (bits >>> 16);
            out[row8 + 1] = (byte) (bits >>> 24);
        });
        return out;
    }

    /**
     * The row-major {@code scales} of a {@code rows × cols} matrix ({@link WeightFormat#scaleBytes} bytes, without
     * MXFP4's row maxima) in this layout.
     */
    public static byte[] scales(WeightFormat format, int rows, int cols, byte[] scales) {
        check(format, rows, cols, "scales", scales, format.scaleBytes(rows, cols));
        return moveScales(format, rows, cols, scales, true);
    }

    /** The row-major scales of a {@code rows × cols} matrix from {@code tiled}, its scales in this layout. */
    public static byte[] rowMajorScales(WeightFormat format, int rows, int cols, byte[] tiled) {
        check(format, rows, cols, "tiled scales", tiled, format.scaleBytes(rows, cols));
        return moveScales(format, rows, cols, tiled, false);
    }

    /**
     * Copies each scale entry between the two layouts: entry d of the tiled scales holds row-major entry
     * {@link #scaleSource}(d); {@code toTiled} gives the direction.
     */
    private static byte[] moveScales(WeightFormat format, int rows, int cols, byte[] from, boolean toTiled) {
        int entryBytes = format == WeightFormat.INT4 ? 4 : 1;
        byte[] out = new byte[from.length];
        int entries = from.length / entryBytes;
        for (int d = 0; d < entries; d++) {
            int s = scaleSource(format, d, cols);
            int src = toTiled ? s : d;
            int dst = toTiled ? d : s;
            System.arraycopy(from, src * entryBytes, out, dst * entryBytes, entryBytes);
        }
        return out;
    }

    /** The row-major scale entry (INT4: float index; NVFP4, MXFP4: byte index) that tiled entry {@code d} holds. */
    static int scaleSource(WeightFormat format, int d, int cols) {
        int groups = cols / GROUP_K;
        int per = format == WeightFormat.INT4 ? 16 : format == WeightFormat.NVFP4 ? 128 : 64; // per (tile, group)
        int tg = d / per;
        int r = d % per;
        int tile = tg / groups;
        int g = tg % groups;
        return switch (format) {
            case INT4 -> (TILE_ROWS * tile + (r >> 1) + 8 * (r & 1)) * groups + g;
            case NVFP4 -> {
                int lane = r >> 2;
                int b = r & 3;
                yield (TILE_ROWS * tile + (lane >> 2) + 8 * (b & 1)) * (cols / 16) + 8 * g + (lane & 3) + 4 * (b >> 1);
            }
            case MXFP4 -> {
                int lane = r >> 1;
                yield (TILE_ROWS * tile + (lane >> 2) + 8 * (r & 1)) * (cols / 32) + 4 * g + (lane & 3);
            }
            default -> throw new IllegalArgumentException(format + " has no tiled layout");
        };
    }

    /** What one word of the layout does with its byte offset and the offsets of its two row-major byte pairs. */
    private interface WordVisitor {
        void visit(int at, int row0, int row8);
    }

    /**
     * Every word in layout order: its byte offset, and the offsets of the two row-major bytes (4 inputs) it holds of
     * row r and of row r + 8.
     */
    private static void forEachWord(WeightFormat format, int rows, int cols, WordVisitor v) {
        boolean oneLine = oneLine(format);
        int groups = cols / GROUP_K;
        int rowBytes = cols / 2;
        int at = 0;
        for (int tile = 0; tile < rows / TILE_ROWS; tile++) {
            for (int g = 0; g < groups; g++) {
                for (int h = 0; h < 2; h++) {
                    for (int lane = 0; lane < 32; lane++) {
                        for (int j = 0; j < 4; j++, at += 4) {
                            int q = lane & 3;
                            int k0 = GROUP_K * g + (oneLine ? 64 * h + 16 * q : 32 * q + 16 * h) + 4 * j;
                            int row0 = (TILE_ROWS * tile + (lane >> 2)) * rowBytes + k0 / 2;
                            v.visit(at, row0, row0 + 8 * rowBytes);
                        }
                    }
                }
            }
        }
        assert at == rows / TILE_ROWS * groups * GROUP_BYTES;
    }

    /** Whether lane q's inputs of a group are 64h + 16q + 4j + c (x read one line a load), not 32q + 16h + 4j + c. */
    static boolean oneLine(WeightFormat format) {
        return format != WeightFormat.MXFP4;
    }

    private static int pair(byte[] b, int at) {
        return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8;
    }

    private static Tables tables(WeightFormat format) {
        return format == WeightFormat.INT4 ? INT4_TABLES : E2M1_TABLES;
    }

    private static void check(WeightFormat format, int rows, int cols, String what, byte[] bytes, long need) {
        Objects.requireNonNull(bytes, what);
        requireSupported(format, rows, cols);
        DeviceWeights.requireLength(what, bytes.length, need, format, rows, cols);
    }

    /** Throws unless {@link #supports} these weights, naming what the layout takes. */
    static void requireSupported(WeightFormat format, int rows, int cols) {
        if (!supports(format, rows, cols)) {
            throw new IllegalArgumentException(format + " " + rows + " x " + cols + " has no tiled layout: it takes a"
                    + " 4-bit format with rows a multiple of " + TILE_ROWS + " and columns a multiple of " + GROUP_K);
        }
    }

    /** The bit place of bit {@code b} of element {@code e}'s code in its word. */
    static int elementBit(boolean e2m1, int e, int b) {
        int c = (e >> 1) & 1;
        int p = (e & 1) + 2 * (e >> 2);
        return e2m1 ? 16 * c + E2M1_BITS[p][b] : 4 * (p + 4 * c) + b;
    }

    /**
     * Lookup tables between a word and the two row-major byte pairs it holds: {@code toWord[rho][u]}, the word bits of
     * the 16 bits u of row r + 8 rho (4 codes, k ascending); {@code fromByte[y][v]}, for byte y of a word holding v,
     * row r's bits in the low 16 and row r + 8's in the high 16.
     */
    private static final class Tables {
        final int[][] toWord = new int[2][65536];
        final int[][] fromByte = new int[4][256];

        Tables(boolean e2m1) {
            for (int rho = 0; rho < 2; rho++) {
                for (int u = 0; u < 65536; u++) {
                    int w = 0;
                    for (int c = 0; c < 4; c++) {
                        for (int b = 0; b < 4; b++) {
                            w |= ((u >>> (4 * c + b)) & 1) << elementBit(e2m1, rho + 2 * c, b);
                        }
                    }
                    toWord[rho][u] = w;
                }
            }
            for (int e = 0; e < 8; e++) {
                for (int b = 0; b < 4; b++) {
                    int pos = elementBit(e2m1, e, b);
                    int to = 16 * (e & 1) + 4 * (e >> 1) + b;
                    for (int v = 0; v < 256; v++) {
                        if (((v >>> (pos % 8)) & 1) != 0) {
                            fromByte[pos / 8][v] |= 1 << to;
                        }
                    }
                }
            }
        }
    }
}
