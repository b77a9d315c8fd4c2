package dev.roofline.cuda.decode;

/** Each sequence's position in a decode step, checked, and the cache lengths it implies. */
final class Positions {
    private Positions() {}

    /**
     * {@code positions[b] + 1} for each of the {@code batch} sequences: the tokens its attention reads, this step's
     * included.
     *
     * @throws IllegalArgumentException naming the sequence when a position is outside [0, capacity), or when there is
     *                                  not one position per sequence
     */
    static int[] lengths(int[] positions, int batch, int capacity) {
        if (positions == null) {
            throw new NullPointerException("positions must not be null");
        }
        if (positions.length != batch) {
            throw new IllegalArgumentException("positions must hold " + batch + " values, got " + positions.length);
        }
        int[] lengths = new int[batch];
        for (int b = 0; b < batch; b++) {
            if (positions[b] < 0 || positions[b] >= capacity) {
                throw new IllegalArgumentException(
                        "positions[" + b + "] must be in [0, " + capacity + "), got " + positions[b]);
            }
            lengths[b] = positions[b] + 1;
        }
        return lengths;
    }
}
