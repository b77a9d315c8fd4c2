package dev.roofline.quant.safetensors;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;

/**
 * A parsed and validated safetensors header: its metadata and its tensors, held column by column (names, dtypes,
 * shapes, byte ranges in primitive arrays) so that a header of a million tensors needs about 100 bytes of heap per
 * tensor, not a million records and boxed shapes. {@link TensorInfo} records are made when asked for. Built by
 * {@link HeaderParser}.
 */
final class Header {
    static final String METADATA_KEY = "__metadata__";
    private static final Dtype[] DTYPES = Dtype.values();

    private final Map<String, String> metadata;
    private final int size;
    private final String[] names; // header order
    private final byte[] dtypes; // Dtype ordinals
    private final long[] begins;
    private final long[] ends;
    private final long[] dims; // tensor i's shape is dims[dimStart[i] .. dimStart[i + 1])
    private final int[] dimStart;
    private final int[] fileOrder; // header indices sorted by (begin, end)
    private final int[] slots; // open addressing by name: header index + 1, 0 for an empty slot

    private Header(Builder b, Map<String, String> metadata, int[] fileOrder) {
        this.metadata = Map.copyOf(metadata);
        this.size = b.size;
        this.names = b.names; // the builder is done with its arrays: no copies of a million entries
        this.dtypes = b.dtypes;
        this.begins = b.begins;
        this.ends = b.ends;
        this.dims = b.dims;
        this.dimStart = b.dimStart;
        this.fileOrder = fileOrder;
        this.slots = b.slots;
    }

    Map<String, String> metadata() {
        return metadata;
    }

    int size() {
        return size;
    }

    /** All tensors in file order (ascending begin, then end); each {@link TensorInfo} is made when read. */
    List<TensorInfo> tensors() {
        return new FileOrder();
    }

    /** The tensor called {@code name}, or null. */
    TensorInfo find(String name) {
        int i = slots[slot(name)] - 1;
        return i < 0 ? null : info(i);
    }

    /** The slot of {@code name}: where it is, or the empty slot where it would go. */
    private int slot(String name) {
        return slot(slots, names, name);
    }

    private static int slot(int[] slots, String[] names, String name) {
        int mask = slots.length - 1;
        int h = name.hashCode();
        int s = (h ^ (h >>> 16)) & mask;
        while (slots[s] != 0 && !names[slots[s] - 1].equals(name)) {
            s = (s + 1) & mask;
        }
        return s;
    }

    private TensorInfo info(int i) {
        Long[] shape = new Long[dimStart[i + 1] - dimStart[i]];
        for (int d = 0; d < shape.length; d++) {
            shape[d] = dims[dimStart[i] + d];
        }
        return new TensorInfo(names[i], DTYPES[dtypes[i]], List.of(shape), begins[i], ends[i]);
    }

    private final class FileOrder extends AbstractList<TensorInfo> implements RandomAccess {
        @Override
        public TensorInfo get(int index) {
            return info(fileOrder[index]);
        }

        @Override
        public int size() {
            return size;
        }
    }

    /** Collects validated tensor entries in header order; {@link #build} checks the ranges against each other. */
    static final class Builder {
        private int size;
        private String[] names = new String[16];
        private byte[] dtypes = new byte[16];
        private long[] begins = new long[16];
        private long[] ends = new long[16];
        private long[] dims = new long[32];
        private int dimCount;
        private int[] dimStart = new int[17];
        private int[] slots = new int[32]; // by name, at most half full: header index + 1, 0 for an empty slot

        /** Whether a tensor called {@code name} was added. */
        boolean contains(String name) {
            return slots[slot(slots, names, name)] != 0;
        }

        /** Adds one tensor whose shape is {@code shape[0 .. rank)}; its name must be new ({@link #contains}). */
        void add(String name, Dtype dtype, long[] shape, int rank, long begin, long end) {
            if (size == names.length) {
                int n = size * 2;
                names = Arrays.copyOf(names, n);
                dtypes = Arrays.copyOf(dtypes, n);
                begins = Arrays.copyOf(begins, n);
                ends = Arrays.copyOf(ends, n);
                dimStart = Arrays.copyOf(dimStart, n + 1);
            }
            if (dimCount + rank > dims.length) {
                dims = Arrays.copyOf(dims, Math.max(dims.length * 2, dimCount + rank));
            }
            System.arraycopy(shape, 0, dims, dimCount, rank);
            dimCount += rank;
            names[size] = name;
            dtypes[size] = (byte) dtype.ordinal();
            begins[size] = begin;
            ends[size] = end;
            slots[slot(slots, names, name)] = size + 1;
            size++;
            dimStart[size] = dimCount;
            if (size * 2 > slots.length) {
                int[] grown = new int[slots.length * 2];
                for (int i = 0; i < size; i++) {
                    grown[slot(grown, names, names[i])] = i + 1;
                }
                slots = grown;
            }
        }

        /**
         * Sorts the tensors by byte range and checks that no two overlap and that together they reach the end of
         * the data section, as the reference implementation requires (it refuses bytes after the last tensor:
         * "incomplete metadata, file not fully covered"). Gaps between tensors are tolerated.
         */
        Header build(Map<String, String> metadata, long dataBytes, String source) throws SafetensorsFormatException {
            int[] order = new int[size];
            Arrays.setAll(order, i -> i);
            boolean sorted = true;
            for (int i = 1; i < size && sorted; i++) {
                sorted = compare(i - 1, i) <= 0;
            }
            if (!sorted) {
                mergeSort(order, new int[size], 0, size);
            }
            int reach = -1; // the tensor, among those seen, that ends last
            for (int i : order) {
                if (ends[i] == begins[i]) {
                    continue; // an empty range holds no bytes and overlaps nothing
                }
                if (reach >= 0 && begins[i] < ends[reach]) {
                    throw new SafetensorsFormatException(
                            FormatViolation.OVERLAPPING_RANGES,
                            source + ": tensor '" + names[i] + "' data_offsets [" + begins[i] + ", " + ends[i]
                                    + "] overlap tensor '" + names[reach] + "' [" + begins[reach] + ", "
                                    + ends[reach] + "]");
                }
                if (reach < 0 || ends[i] > ends[reach]) {
                    reach = i;
                }
            }
            long covered = reach < 0 ? 0 : ends[reach];
            if (covered != dataBytes) {
                throw new SafetensorsFormatException(
                        FormatViolation.TRAILING_BYTES,
                        source + ": " + (dataBytes - covered) + " bytes after the end of the last tensor"
                                + (reach < 0 ? "" : " ('" + names[reach] + "' ends at " + covered + ")")
                                + " in a data section of " + dataBytes + " bytes; the format has nothing there");
            }
            return new Header(this, metadata, order);
        }

        private int compare(int a, int b) {
            int c = Long.compare(begins[a], begins[b]);
            return c != 0 ? c : Long.compare(ends[a], ends[b]);
        }

        /** A stable merge sort of {@code a[from .. to)} by (begin, end), without boxing. */
        private void mergeSort(int[] a, int[] tmp, int from, int to) {
            if (to - from < 2) {
                return;
            }
            int mid = (from + to) >>> 1;
            mergeSort(a, tmp, from, mid);
            mergeSort(a, tmp, mid, to);
            System.arraycopy(a, from, tmp, from, to - from);
            for (int i = from, l = from, r = mid; i < to; i++) {
                a[i] = r >= to || (l < mid && compare(tmp[l], tmp[r]) <= 0) ? tmp[l++] : tmp[r++];
            }
        }
    }
}
