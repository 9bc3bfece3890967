package dev.gatun.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.ffm.internal.ArrowArray;
import dev.gatun.ffm.internal.ArrowSchema;
import dev.gatun.ffm.internal.gatun_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** C Data Interface ownership across gatun_roundtrip: move in, export out, release exactly once. */
@ExtendWith(NoLiveNativeResources.class)
class RoundtripTest {
    private static final Integer[] VALUES = {7, null, -3, Integer.MAX_VALUE, 0};

    @AfterEach
    void noUpcallFailed() {
        assertTrue(TestArrow.UPCALL_ERRORS.isEmpty(), "release upcall failed: " + TestArrow.UPCALL_ERRORS);
    }

    @Test
    void int32ArrayGoesInAndComesBackWithoutCopy() {
        try (Arena arena = Arena.ofConfined()) {
            TestArrow.Filled schema = TestArrow.schema(arena, "i");
            TestArrow.Filled array = TestArrow.int32(arena, VALUES);
            MemorySegment outSchema = ArrowSchema.allocate(arena);
            MemorySegment outArray = ArrowArray.allocate(arena);
            NativeStats before = GatunLibrary.stats();

            GatunNative.roundtrip(schema.struct(), array.struct(), outSchema, outArray);

            NativeStats exported = GatunLibrary.stats();
            assertEquals(before.liveExportedArrays() + 1, exported.liveExportedArrays(), "counted while alive");
            assertEquals(before.liveExportedSchemas() + 1, exported.liveExportedSchemas(), "counted while alive");

            assertEquals(MemorySegment.NULL, ArrowArray.release(array.struct()), "input array was moved");
            assertEquals(0, array.releases(), "the output keeps the input alive");
            assertEquals(5, ArrowArray.length(outArray));
            assertEquals(1, ArrowArray.null_count(outArray));
            assertEquals(2, ArrowArray.n_buffers(outArray));
            assertEquals("i", ArrowSchema.format(outSchema).getString(0));
            assertValues(outArray);

            ArrowArray.release.invoke(ArrowArray.release(outArray), outArray);
            ArrowSchema.release.invoke(ArrowSchema.release(outSchema), outSchema);

            assertEquals(MemorySegment.NULL, ArrowArray.release(outArray));
            assertEquals(MemorySegment.NULL, ArrowSchema.release(outSchema));
            assertEquals(1, array.releases(), "input release ran exactly once");
            assertEquals(0, schema.releases(), "the input schema stays the caller's");
            NativeStats after = GatunLibrary.stats();
            assertEquals(before.liveExportedArrays(), after.liveExportedArrays(), after.describeLiveResources());
            assertEquals(before.liveExportedSchemas(), after.liveExportedSchemas(), after.describeLiveResources());

            ArrowSchema.release.invoke(ArrowSchema.release(schema.struct()), schema.struct());
            assertEquals(1, schema.releases());
        }
    }

    private static void assertValues(MemorySegment outArray) {
        long offset = ArrowArray.offset(outArray);
        MemorySegment buffers = ArrowArray.buffers(outArray);
        MemorySegment validity = buffers.getAtIndex(ValueLayout.ADDRESS, 0).reinterpret((offset + 5 + 7) / 8);
        MemorySegment data = buffers.getAtIndex(ValueLayout.ADDRESS, 1).reinterpret(4 * (offset + 5));
        for (int i = 0; i < VALUES.length; i++) {
            long bit = offset + i;
            boolean valid = validity.address() == 0
                    || (validity.get(ValueLayout.JAVA_BYTE, bit / 8) & (1 << (bit % 8))) != 0;
            assertEquals(VALUES[i] != null, valid, "validity of element " + i);
            if (valid) {
                assertEquals(VALUES[i], data.getAtIndex(ValueLayout.JAVA_INT, bit), "element " + i);
            }
        }
    }

    @Test
    void invalidUtf8OffsetsAreRejectedAndTheInputIsStillReleased() {
        try (Arena arena = Arena.ofConfined()) {
            TestArrow.Filled schema = TestArrow.schema(arena, "u");
            TestArrow.Filled array = TestArrow.utf8(arena, new int[] {0, 5, 3}, "hello");
            MemorySegment outSchema = ArrowSchema.allocate(arena);
            MemorySegment outArray = ArrowArray.allocate(arena);

            NativeArrowException e = assertThrows(NativeArrowException.class,
                    () -> GatunNative.roundtrip(schema.struct(), array.struct(), outSchema, outArray));

            assertEquals(gatun_h.GATUN_ERR_ARROW(), e.status());
            assertTrue(e.getMessage().contains("gatun_roundtrip"), e.getMessage());
            assertEquals(MemorySegment.NULL, ArrowArray.release(array.struct()), "input array was consumed");
            assertEquals(1, array.releases(), "input release ran exactly once");
            releaseIfSet(outArray, outSchema); // a partial output would be the caller's
            ArrowSchema.release.invoke(ArrowSchema.release(schema.struct()), schema.struct());
        }
    }

    private static void releaseIfSet(MemorySegment array, MemorySegment schema) {
        if (!MemorySegment.NULL.equals(ArrowArray.release(array))) {
            ArrowArray.release.invoke(ArrowArray.release(array), array);
        }
        if (!MemorySegment.NULL.equals(ArrowSchema.release(schema))) {
            ArrowSchema.release.invoke(ArrowSchema.release(schema), schema);
        }
    }

    @Test
    void structsMustBeNativeAndLargeEnough() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment schema = ArrowSchema.allocate(arena);
            MemorySegment array = ArrowArray.allocate(arena);
            MemorySegment tooSmall = arena.allocate(8);
            assertThrows(IllegalArgumentException.class,
                    () -> GatunNative.roundtrip(schema, tooSmall, schema, array));
            assertThrows(IllegalArgumentException.class,
                    () -> GatunNative.roundtrip(schema, MemorySegment.ofArray(new byte[80]), schema, array));
        }
    }
}
