package dev.gatun.arrow.testing;

import dev.gatun.ffm.internal.ArrowArray;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * Turns an exported batch struct into a slice of itself, in place, by setting offsets and
 * lengths as a producer of slices would: the buffers stay the same, so the slice is valid.
 */
public final class Slices {
    private Slices() {}

    /** Rows {@code [from, from + length)} through the root struct's offset. */
    public static void sliceRoot(MemorySegment root, long from, long length) {
        MemorySegment s = root.reinterpret(ArrowArray.sizeof());
        ArrowArray.offset(s, from);
        ArrowArray.length(s, length);
    }

    /**
     * Rows {@code [from, from + length)} through each column's own offset; {@code nullCounts}
     * are the columns' exact NULL counts in that range (-1: leave unknown).
     */
    public static void sliceColumns(MemorySegment root, long from, long length, List<Long> nullCounts) {
        MemorySegment s = root.reinterpret(ArrowArray.sizeof());
        ArrowArray.length(s, length);
        long n = ArrowArray.n_children(s);
        MemorySegment children = ArrowArray.children(s).reinterpret(8 * n);
        for (int i = 0; i < n; i++) {
            MemorySegment c = children.getAtIndex(ValueLayout.ADDRESS, i).reinterpret(ArrowArray.sizeof());
            ArrowArray.offset(c, ArrowArray.offset(c) + from);
            ArrowArray.length(c, length);
            ArrowArray.null_count(c, nullCounts.get(i));
        }
    }

    /** NULL count of {@code values[from, from + length)}. */
    public static long nulls(List<Object> values, int from, int length) {
        return values.subList(from, from + length).stream().filter(v -> v == null).count();
    }
}
