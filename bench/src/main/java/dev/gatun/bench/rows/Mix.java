package dev.gatun.bench.rows;

/**
 * Stateless deterministic randomness: every value is a hash of (seed, row index, field), so any
 * row can be generated alone, in any order, by any parallel reader, and always comes out the same.
 */
public final class Mix {
    private Mix() {}

    /** A well-mixed 64-bit value for one field of one row (SplitMix64 finalizer). */
    public static long of(long seed, long index, int field) {
        long z = seed + index * 0x9E3779B97F4A7C15L + (field + 1) * 0xD1B54A32D192ED03L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** A value in {@code [0, bound)}. */
    public static int below(long random, int bound) {
        return (int) ((random >>> 1) % bound);
    }

    /** A value in {@code [min, max]}. */
    public static int between(long random, int min, int max) {
        return min + below(random, max - min + 1);
    }

    /** A double in {@code [0, 1)}. */
    public static double unit(long random) {
        return (random >>> 11) * 0x1.0p-53;
    }
}
