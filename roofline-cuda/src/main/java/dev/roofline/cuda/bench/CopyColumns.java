package dev.roofline.cuda.bench;

/**
 * The columns that set a measured kernel beside its {@link CopyReference}: the same-bytes copy and read, and the
 * kernel's median over each; shared by the GEMV and attention tables.
 */
final class CopyColumns {
    private CopyColumns() {}

    /** The same-bytes copy's median. */
    static final Column<Measurement> COPY =
            Column.number("same-bytes copy us", "same_bytes_copy_us", "%.2f", "%.3f", m -> m.copy()
                    .map(c -> c.sameBytesCopy().medianMicros()));

    /** The kernel's median over the same-bytes copy's. */
    static final Column<Measurement> VS_COPY =
            Column.number("vs copy", "vs_copy", "%.2fx", "%.3f", Measurement::timesSameBytesCopy);

    /** The same-bytes read's median. */
    static final Column<Measurement> READ =
            Column.number("same-bytes read us", "same_bytes_read_us", "%.2f", "%.3f", m -> m.copy()
                    .flatMap(CopyReference::sameBytesRead)
                    .map(TimingStats::medianMicros));

    /** The kernel's median over the same-bytes read's. */
    static final Column<Measurement> VS_READ =
            Column.number("vs read", "vs_read", "%.2fx", "%.3f", Measurement::timesSameBytesRead);
}
