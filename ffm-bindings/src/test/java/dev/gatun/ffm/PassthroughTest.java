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

/** The bare crossing (gatun_passthrough): same buffers back, input consumed on every path, handles counted. */
@ExtendWith(NoLiveNativeResources.class)
class PassthroughTest {
    @AfterEach
    void noUpcallFailed() {
        assertTrue(TestArrow.UPCALL_ERRORS.isEmpty(), "release upcall failed: " + TestArrow.UPCALL_ERRORS);
    }

    @Test
    void theSameBuffersComeBackAndTheInputIsReleasedWithTheOutput() {
        try (Arena arena = Arena.ofConfined()) {
            TestArrow.Filled schema = TestArrow.schema(arena, "i");
            NativeStats before = GatunLibrary.stats();
            MemorySegment handle = GatunNative.passthroughCreate(schema.struct());
            try {
                assertEquals(before.liveHandles() + 1, GatunLibrary.stats().liveHandles());
                for (int round = 0; round < 3; round++) {
                    TestArrow.Filled array = TestArrow.int32(arena, 1, null, 3);
                    MemorySegment data = ArrowArray.buffers(array.struct()).getAtIndex(ValueLayout.ADDRESS, 1);
                    MemorySegment out = ArrowArray.allocate(arena);

                    GatunNative.passthrough(handle, array.struct(), out);

                    assertEquals(MemorySegment.NULL, ArrowArray.release(array.struct()), "input moved in");
                    assertEquals(0, array.releases(), "the output keeps the input alive");
                    assertEquals(3, ArrowArray.length(out));
                    assertEquals(1, ArrowArray.null_count(out));
                    assertEquals(data, ArrowArray.buffers(out).getAtIndex(ValueLayout.ADDRESS, 1), "no copy");
                    ArrowArray.release.invoke(ArrowArray.release(out), out);
                    assertEquals(1, array.releases(), "input release ran exactly once");
                }
            } finally {
                GatunNative.passthroughFree(handle);
            }
            assertEquals(before.liveHandles(), GatunLibrary.stats().liveHandles());
            assertEquals(0, schema.releases(), "the schema stays the caller's");
            ArrowSchema.release.invoke(ArrowSchema.release(schema.struct()), schema.struct());
        }
    }

    @Test
    void anArrayOfAnotherShapeIsRejectedAndReleased() {
        try (Arena arena = Arena.ofConfined()) {
            TestArrow.Filled schema = TestArrow.schema(arena, "u");
            MemorySegment handle = GatunNative.passthroughCreate(schema.struct());
            try {
                TestArrow.Filled array = TestArrow.int32(arena, 1, 2); // two buffers, utf8 needs three
                MemorySegment out = ArrowArray.allocate(arena);
                NativeArrowException e = assertThrows(NativeArrowException.class,
                        () -> GatunNative.passthrough(handle, array.struct(), out));
                assertEquals(gatun_h.GATUN_ERR_ARROW(), e.status());
                assertTrue(e.getMessage().contains("gatun_passthrough") && e.getMessage().contains("buffers"),
                        e.getMessage());
                assertEquals(1, array.releases(), "the rejected input was released exactly once");
                assertEquals(MemorySegment.NULL, ArrowArray.release(out), "no output on failure");
            } finally {
                GatunNative.passthroughFree(handle);
            }
            ArrowSchema.release.invoke(ArrowSchema.release(schema.struct()), schema.struct());
        }
    }

    @Test
    void aFreedHandleIsAnInvalidArgument() {
        try (Arena arena = Arena.ofConfined()) {
            TestArrow.Filled schema = TestArrow.schema(arena, "i");
            MemorySegment handle = GatunNative.passthroughCreate(schema.struct());
            GatunNative.passthroughFree(handle);
            NativeInvalidArgumentException e = assertThrows(NativeInvalidArgumentException.class,
                    () -> GatunNative.passthroughFree(handle));
            assertTrue(e.getMessage().contains("not a live GatunPassthrough"), e.getMessage());
            TestArrow.Filled array = TestArrow.int32(arena, 5);
            assertThrows(NativeInvalidArgumentException.class,
                    () -> GatunNative.passthrough(handle, array.struct(), ArrowArray.allocate(arena)));
            assertEquals(1, array.releases(), "consumed even with a stale handle");
            assertThrows(IllegalArgumentException.class,
                    () -> GatunNative.passthrough(MemorySegment.NULL, array.struct(), ArrowArray.allocate(arena)));
            ArrowSchema.release.invoke(ArrowSchema.release(schema.struct()), schema.struct());
        }
    }
}
