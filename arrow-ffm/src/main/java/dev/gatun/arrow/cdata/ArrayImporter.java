package dev.gatun.arrow.cdata;

import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.vector.ValueVector;
import dev.gatun.arrow.vector.Vectors;
import dev.gatun.ffm.internal.ArrowArray;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * Validates one imported {@code ArrowArray} tree against its {@link Field}s and builds read-only
 * views of its buffers in the import arena. Everything the structs carry is checked before any
 * value is exposed: {@code length}, {@code offset} and {@code null_count} ranges, buffer and child
 * counts, required buffers present, offsets non-negative and non-decreasing, children long enough
 * for their parent. Buffer extents are not part of the interface; they are computed from those
 * numbers and trusted to the producer.
 */
final class ArrayImporter {
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED;
    /**
     * All of memory, to read the producer's structs and pointer arrays by address without a
     * segment per read: the producer vouches for those addresses, exactly as a
     * {@code reinterpret} of each would. Buffers are still exposed only through views bound to
     * the import arena.
     */
    private static final MemorySegment MEMORY = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
    private static final long LENGTH = ArrowArray.length$offset();
    private static final long NULL_COUNT = ArrowArray.null_count$offset();
    private static final long OFFSET = ArrowArray.offset$offset();
    private static final long N_BUFFERS = ArrowArray.n_buffers$offset();
    private static final long N_CHILDREN = ArrowArray.n_children$offset();
    private static final long BUFFERS = ArrowArray.buffers$offset();
    private static final long CHILDREN = ArrowArray.children$offset();
    private static final long DICTIONARY = ArrowArray.dictionary$offset();
    private static final long RELEASE = ArrowArray.release$offset();
    private static final long MAX_LENGTH = Integer.MAX_VALUE - 8;
    private static final int MAX_DEPTH = 64;

    private final Arena arena;
    private long bytes;

    ArrayImporter(Arena arena) {
        this.arena = arena;
    }

    /** Bytes of the producer's buffers that the views cover. */
    long bytes() {
        return bytes;
    }

    /** Checks a struct's header fields; returns its length. */
    static long checkHeader(MemorySegment a, String where) {
        return checkHeader(a.address(), Where.root(where));
    }

    /** A field of the struct at {@code a}. */
    private static long field(long a, long offset) {
        return MEMORY.get(WORD, a + offset);
    }

    private static long checkHeader(long a, Where where) {
        long length = field(a, LENGTH);
        long offset = field(a, OFFSET);
        long nullCount = field(a, NULL_COUNT);
        if (length < 0 || length > MAX_LENGTH) {
            throw new ArrowFormatException(where + ".length", "is " + length + ", must be 0.." + MAX_LENGTH);
        }
        if (offset < 0 || offset > MAX_LENGTH - length) {
            throw new ArrowFormatException(where + ".offset", "is " + offset + " with length " + length
                    + ", must be 0.." + (MAX_LENGTH - length));
        }
        if (nullCount < -1 || nullCount > length) {
            throw new ArrowFormatException(where + ".null_count", "is " + nullCount + " but length is " + length
                    + " (must be -1 or 0..length)");
        }
        return length;
    }

    /**
     * Imports the node {@code a} of {@code field}, exposing its logical rows
     * {@code [start, start + count)} (a struct parent's offset shifts its children's rows).
     */
    ValueVector node(MemorySegment a, Field field, String where, long start, long count, int depth) {
        return node(a.address(), field, Where.root(where), start, count, depth);
    }

    private ValueVector node(long a, Field field, Where where, long start, long count, int depth) {
        if (depth > MAX_DEPTH) {
            throw new ArrowFormatException(where.toString(), "nested deeper than " + MAX_DEPTH + " levels");
        }
        where = where.typed(field);
        if (field(a, RELEASE) == 0) {
            throw new ArrowFormatException(where + ".release", "is NULL: already released");
        }
        long length = checkHeader(a, where);
        long offset = field(a, OFFSET);
        long nullCount = field(a, NULL_COUNT);
        if (start + count > length) {
            throw new ArrowFormatException(where + ".length", "is " + length + " but the parent needs "
                    + (start + count) + " rows");
        }
        ArrowType type = field.type();
        int nb = Vectors.bufferCount(type);
        int nc = field.children().size();
        checkCount(field(a, N_BUFFERS), nb, where, ".n_buffers", type);
        checkCount(field(a, N_CHILDREN), nc, where, ".n_children", type);
        if (field(a, DICTIONARY) != 0) {
            throw new ArrowFormatException(where + ".dictionary", "is set: dictionary-encoded arrays are not supported");
        }
        long[] pointers = pointers(field(a, BUFFERS), nb, where, ".buffers");
        long[] children = pointers(field(a, CHILDREN), nc, where, ".children");

        long first = offset + start;
        long end = first + count;
        MemorySegment[] buffers = new MemorySegment[nb];
        MemorySegment validity = null;
        if (nb > 0 && !(type instanceof ArrowType.Null)) {
            if (pointers[0] != 0) {
                validity = buffer(pointers[0], bitmapBytes(end), where, 0);
            } else if (nullCount > 0) {
                throw new ArrowFormatException(where + ".buffers[0]", "validity is NULL but null_count is " + nullCount);
            }
            buffers[0] = validity;
        }
        List<ValueVector> childVectors = nc == 0 ? List.of() : new ArrayList<>(nc);
        switch (type) {
            case ArrowType.Null n -> { }
            case ArrowType.Bool b -> buffers[1] = required(pointers, 1, bitmapBytes(end), length, where);
            case ArrowType.Utf8 u -> varBinary(pointers, buffers, first, count, length, where);
            case ArrowType.Binary b -> varBinary(pointers, buffers, first, count, length, where);
            case ArrowType.ListType l -> list(a, field, pointers, buffers, children, childVectors, first, count, length, where, depth);
            case ArrowType.MapType m -> list(a, field, pointers, buffers, children, childVectors, first, count, length, where, depth);
            case ArrowType.StructType s -> {
                for (int i = 0; i < nc; i++) {
                    childVectors.add(node(child(children, i, where), field.child(i), where.child(i),
                            first, count, depth + 1));
                }
            }
            default -> buffers[1] = required(pointers, 1, end * Vectors.byteWidth(type), length, where);
        }
        boolean whole = start == 0 && count == length;
        long viewNullCount = type instanceof ArrowType.Null ? count
                : validity == null ? 0 : whole ? nullCount : -1;
        ValueVector.View view = new ValueVector.View((int) count, first, viewNullCount, validity, buffers);
        return Vectors.view(field, view, childVectors, arena.scope());
    }

    private void varBinary(long[] pointers, MemorySegment[] buffers, long first, long count, long length,
                           Where where) {
        MemorySegment offsets = offsets(pointers, buffers, first, count, length, where);
        long dataEnd = count == 0 && offsets == null ? 0 : offsets.get(INT, (first + count) * 4);
        buffers[2] = required(pointers, 2, dataEnd, length, where);
    }

    private void list(long a, Field field, long[] pointers, MemorySegment[] buffers,
                      long[] children, List<ValueVector> childVectors, long first, long count, long length,
                      Where where, int depth) {
        MemorySegment offsets = offsets(pointers, buffers, first, count, length, where);
        long childEnd = count == 0 && offsets == null ? 0 : offsets.get(INT, (first + count) * 4);
        long child = child(children, 0, where);
        Where childWhere = where.child(0);
        long childLength = checkHeader(child, childWhere);
        if (childEnd > childLength) {
            throw new ArrowFormatException(childWhere + ".length", "is " + childLength
                    + " but the offsets of its parent reach " + childEnd);
        }
        childVectors.add(node(child, field.child(0), childWhere, 0, childEnd, depth + 1));
    }

    /** Validates and maps the offsets buffer; null only when the array is empty and the pointer NULL. */
    private MemorySegment offsets(long[] pointers, MemorySegment[] buffers, long first, long count, long length,
                                  Where where) {
        if (pointers[1] == 0 && length == 0) {
            buffers[1] = MemorySegment.NULL.reinterpret(0, arena, null);
            return null;
        }
        MemorySegment offsets = required(pointers, 1, (first + count + 1) * 4, length, where);
        int previous = offsets.get(INT, first * 4);
        if (previous < 0) {
            throw new ArrowFormatException(where + ".buffers[1]", "offset " + first + " is negative (" + previous + ")");
        }
        if (!nonDecreasing(pointers[1], first, count, previous)) {
            for (long i = first + 1; i <= first + count; i++) {
                int next = offsets.get(INT, i * 4);
                if (next < previous) {
                    throw new ArrowFormatException(where + ".buffers[1]", "offsets decrease at " + i + " (" + previous
                            + " then " + next + ")");
                }
                previous = next;
            }
        }
        buffers[1] = offsets;
        return offsets;
    }

    /**
     * Whether offsets {@code first..first+count} never decrease, given that the first one,
     * {@code start}, is non-negative (then none is negative either). Branch-free over a view
     * without the arena's liveness checks, which this import holds open: a loop the JIT can unroll
     * (a string column of 4096 rows was a third of the import's time with a checked, branching loop).
     */
    private static boolean nonDecreasing(long offsets, long first, long count, int start) {
        long previous = start;
        long drops = 0;
        for (long i = first + 1; i <= first + count; i++) {
            long next = MEMORY.get(INT, offsets + i * 4);
            drops |= next - previous; // in long: no overflow, negative iff next < previous
            previous = next;
        }
        return drops >= 0;
    }

    private MemorySegment required(long[] pointers, int i, long extent, long length, Where where) {
        if (pointers[i] == 0) {
            if (extent == 0 || length == 0) {
                return MemorySegment.NULL.reinterpret(0, arena, null);
            }
            throw new ArrowFormatException(where + ".buffers[" + i + "]", "is NULL but the array has " + length + " values");
        }
        return buffer(pointers[i], extent, where, i);
    }

    private MemorySegment buffer(long pointer, long extent, Where where, int i) {
        bytes += extent;
        return MemorySegment.ofAddress(pointer).reinterpret(extent, arena, null).asReadOnly();
    }

    private static long bitmapBytes(long bits) {
        return (bits + 7) >>> 3;
    }

    private static void checkCount(long actual, int expected, Where where, String field, ArrowType type) {
        if (actual != expected) {
            throw new ArrowFormatException(where + field, "is " + actual + " but " + type + " has " + expected);
        }
    }

    private static long[] pointers(long array, int n, Where where, String field) {
        long[] out = new long[n];
        if (n == 0) {
            return out;
        }
        if (array == 0) {
            throw new ArrowFormatException(where + field, "is NULL but " + n + " entries are required");
        }
        for (int i = 0; i < n; i++) {
            out[i] = MEMORY.get(WORD, array + 8L * i);
        }
        return out;
    }

    private static long child(long[] children, int i, Where where) {
        long c = children[i];
        if (c == 0) {
            throw new ArrowFormatException(where + ".children[" + i + "]", "pointer is NULL");
        }
        return c;
    }

    /**
     * Where in the struct tree a check is, spelled out only when a check fails (building the
     * names eagerly cost several string concatenations per node on every import).
     */
    private static final class Where {
        private final Where parent;
        /** The root's name; null for the other steps. */
        private final String text;
        /** A typed step: the node's field. */
        private final Field field;
        /** A child step: the child's index. */
        private final int child;

        private Where(Where parent, String text, Field field, int child) {
            this.parent = parent;
            this.text = text;
            this.field = field;
            this.child = child;
        }

        static Where root(String text) {
            return new Where(null, text, null, -1);
        }

        Where typed(Field f) {
            return new Where(this, null, f, -1);
        }

        Where child(int i) {
            return new Where(this, null, null, i);
        }

        @Override
        public String toString() {
            String own = text != null ? text
                    : field != null ? " (" + field.name() + ": " + FormatStrings.of(field.type()) + ")"
                    : ".children[" + child + "]";
            return parent == null ? own : parent + own;
        }
    }
}
