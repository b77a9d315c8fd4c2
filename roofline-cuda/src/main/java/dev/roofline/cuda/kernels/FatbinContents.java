package dev.roofline.cuda.kernels;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The table of contents of a CUDA fat binary: which GPU code it carries, read from its headers without decompressing
 * anything. NVIDIA does not document the container; this reads the layout as cuobjdump lists it and as open
 * re-implementations describe it (GrigoryEvko/nvopen-tools, fatbin/FORMAT_SPECIFICATION.md;
 * n-eiling/cuda-fatbin-decompression, fatbin-decompress.h): a 16-byte header (magic 0xBA55ED50, version 1, header size,
 * then the bytes of all entries), then entries back to back, each a header (kind: 1 PTX, 2 ELF cubin; its own size at
 * byte 4; its payload's size at byte 8; the SM version ×10 + minor, e.g. 90 or 121, at byte 28) followed by its payload.
 *
 * @param entries the code objects in file order
 */
public record FatbinContents(List<Entry> entries) {
    static final int MAGIC = 0xBA55ED50;
    static final int HEADER_BYTES = 16;
    private static final int ENTRY_ARCH_OFFSET = 28;
    private static final int ENTRY_MIN_BYTES = ENTRY_ARCH_OFFSET + 4;

    /** What an entry holds. */
    public enum Kind {
        /** PTX, compiled by the driver for the GPU it runs on (this or a later architecture). */
        PTX,
        /** Machine code (SASS in an ELF cubin) for one architecture. */
        CUBIN
    }

    /**
     * One code object.
     *
     * @param kind PTX or machine code
     * @param arch the SM version as nvcc numbers it: 90 for sm_90/sm_90a, 121 for sm_121a
     */
    public record Entry(Kind kind, int arch) {
        /** "sm_121" for machine code, "compute_90" for PTX (the {@code a} suffix is not in the table). */
        @Override
        public String toString() {
            return (kind == Kind.CUBIN ? "sm_" : "compute_") + arch;
        }
    }

    public FatbinContents {
        entries = List.copyOf(entries);
    }

    /**
     * The entries of {@code fatbin}.
     *
     * @throws IllegalArgumentException when it is not a fat binary (wrong magic or version) or an entry runs past its
     *                                  end, naming the byte offset
     */
    public static FatbinContents read(byte[] fatbin) {
        Objects.requireNonNull(fatbin, "fatbin must not be null");
        ByteBuffer b = ByteBuffer.wrap(fatbin).order(ByteOrder.LITTLE_ENDIAN);
        if (fatbin.length < HEADER_BYTES || b.getInt(0) != MAGIC) {
            throw new IllegalArgumentException("not a CUDA fat binary: no magic 0xBA55ED50 at byte 0");
        }
        if (b.getShort(4) != 1) {
            throw new IllegalArgumentException("fat binary version " + b.getShort(4) + " at byte 4; 1 is read here");
        }
        int header = Short.toUnsignedInt(b.getShort(6));
        long body = b.getLong(8);
        if (header < HEADER_BYTES || body <= 0 || body > fatbin.length - header) {
            throw new IllegalArgumentException(
                    "fat binary header says " + header + " + " + body + " bytes, the file has " + fatbin.length);
        }
        long end = header + body;
        List<Entry> entries = new ArrayList<>();
        long at = header;
        while (at < end) {
            if (at + ENTRY_MIN_BYTES > end) {
                throw new IllegalArgumentException("fat binary entry at byte " + at + " is cut off");
            }
            int i = (int) at;
            int kind = Short.toUnsignedInt(b.getShort(i));
            long entryHeader = Integer.toUnsignedLong(b.getInt(i + 4));
            long payload = b.getLong(i + 8);
            if (entryHeader < ENTRY_MIN_BYTES || payload < 0 || payload > end - at - entryHeader) {
                throw new IllegalArgumentException("fat binary entry at byte " + at + " claims " + entryHeader + " + "
                        + payload + " bytes, past the end at " + end);
            }
            entries.add(new Entry(
                    switch (kind) {
                        case 1 -> Kind.PTX;
                        case 2 -> Kind.CUBIN;
                        default ->
                            throw new IllegalArgumentException("fat binary entry at byte " + at + " is of kind " + kind
                                    + "; 1 (PTX) and 2 (ELF) are read");
                    },
                    b.getInt(i + ENTRY_ARCH_OFFSET)));
            at += entryHeader + payload;
        }
        return new FatbinContents(entries);
    }

    /** The contents of the GEMV, attention and decode kernels' fatbin in this jar. */
    public static FatbinContents embedded() {
        return read(GemvKernels.embeddedFatbin());
    }

    /** Whether PTX that the driver can compile for SM version {@code arch} is in it: PTX for {@code arch} or below. */
    public boolean hasPtxFor(int arch) {
        return entries.stream().anyMatch(e -> e.kind() == Kind.PTX && e.arch() <= arch);
    }

    /** Whether machine code for SM version {@code arch} (e.g. 121) is in it. */
    public boolean hasCubin(int arch) {
        return entries.contains(new Entry(Kind.CUBIN, arch));
    }
}
