package dev.gatun.ffm;

import dev.gatun.ffm.internal.ArrowArray;
import dev.gatun.ffm.internal.ArrowSchema;
import dev.gatun.ffm.internal.gatun_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Hand-built C Data Interface arrays and schemas for tests. One release upcall stub per struct
 * type lives in the global arena; {@code private_data} carries an id so each struct's releases
 * are counted separately (native memory cannot hold a Java reference).
 */
final class TestArrow {
    private static final AtomicLong IDS = new AtomicLong(1);
    private static final Map<Long, AtomicInteger> RELEASES = new ConcurrentHashMap<>();
    /** Anything thrown inside a release upcall (it must not escape: that would kill the JVM). */
    static final List<Throwable> UPCALL_ERRORS = new CopyOnWriteArrayList<>();

    private static final MemorySegment RELEASE_ARRAY =
            ArrowArray.release.allocate(TestArrow::releaseArray, Arena.global());
    private static final MemorySegment RELEASE_SCHEMA =
            ArrowSchema.release.allocate(TestArrow::releaseSchema, Arena.global());

    private TestArrow() {}

    /** A struct filled by Java, with the id its release is counted under. */
    record Filled(MemorySegment struct, long id) {
        int releases() {
            return RELEASES.get(id).get();
        }
    }

    static Filled schema(Arena arena, String format) {
        MemorySegment schema = ArrowSchema.allocate(arena);
        ArrowSchema.format(schema, arena.allocateFrom(format));
        ArrowSchema.name(schema, arena.allocateFrom("v"));
        ArrowSchema.flags(schema, gatun_h.ARROW_FLAG_NULLABLE());
        long id = newId();
        ArrowSchema.private_data(schema, MemorySegment.ofAddress(id));
        ArrowSchema.release(schema, RELEASE_SCHEMA);
        return new Filled(schema, id);
    }

    /** An Int32 array; {@code null} elements become nulls in a validity bitmap. */
    static Filled int32(Arena arena, Integer... values) {
        MemorySegment validity = buffer(arena, (values.length + 7) / 8);
        MemorySegment data = buffer(arena, 4L * values.length);
        int nulls = 0;
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                nulls++;
            } else {
                data.setAtIndex(ValueLayout.JAVA_INT, i, values[i]);
                int bits = validity.get(ValueLayout.JAVA_BYTE, i / 8) | (1 << (i % 8));
                validity.set(ValueLayout.JAVA_BYTE, i / 8, (byte) bits);
            }
        }
        return array(arena, values.length, nulls, validity, data);
    }

    /** A Utf8 array with the given offsets (not validated here: tests pass bad ones on purpose). */
    static Filled utf8(Arena arena, int[] offsets, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        MemorySegment offsetBuffer = buffer(arena, 4L * offsets.length);
        MemorySegment.copy(offsets, 0, offsetBuffer, ValueLayout.JAVA_INT, 0, offsets.length);
        MemorySegment data = buffer(arena, bytes.length);
        MemorySegment.copy(bytes, 0, data, ValueLayout.JAVA_BYTE, 0, bytes.length);
        return array(arena, offsets.length - 1, 0, MemorySegment.NULL, offsetBuffer, data);
    }

    private static Filled array(Arena arena, long length, long nulls, MemorySegment... buffers) {
        MemorySegment pointers = arena.allocate(ValueLayout.ADDRESS, buffers.length);
        for (int i = 0; i < buffers.length; i++) {
            pointers.setAtIndex(ValueLayout.ADDRESS, i, buffers[i]);
        }
        MemorySegment array = ArrowArray.allocate(arena);
        ArrowArray.length(array, length);
        ArrowArray.null_count(array, nulls);
        ArrowArray.offset(array, 0);
        ArrowArray.n_buffers(array, buffers.length);
        ArrowArray.n_children(array, 0);
        ArrowArray.buffers(array, pointers);
        ArrowArray.children(array, MemorySegment.NULL);
        ArrowArray.dictionary(array, MemorySegment.NULL);
        long id = newId();
        ArrowArray.private_data(array, MemorySegment.ofAddress(id));
        ArrowArray.release(array, RELEASE_ARRAY);
        return new Filled(array, id);
    }

    /** 64-byte aligned, padded to 64 bytes, zeroed. */
    private static MemorySegment buffer(Arena arena, long size) {
        long padded = Math.max(64, (size + 63) / 64 * 64);
        return arena.allocate(padded, 64);
    }

    private static long newId() {
        long id = IDS.getAndIncrement();
        RELEASES.put(id, new AtomicInteger());
        return id;
    }

    private static void releaseArray(MemorySegment pointer) {
        try {
            MemorySegment array = pointer.reinterpret(ArrowArray.sizeof());
            RELEASES.get(ArrowArray.private_data(array).address()).incrementAndGet();
            ArrowArray.release(array, MemorySegment.NULL);
        } catch (Throwable t) {
            UPCALL_ERRORS.add(t);
        }
    }

    private static void releaseSchema(MemorySegment pointer) {
        try {
            MemorySegment schema = pointer.reinterpret(ArrowSchema.sizeof());
            RELEASES.get(ArrowSchema.private_data(schema).address()).incrementAndGet();
            ArrowSchema.release(schema, MemorySegment.NULL);
        } catch (Throwable t) {
            UPCALL_ERRORS.add(t);
        }
    }
}
