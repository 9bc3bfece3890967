package dev.gatun.arrow.cdata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.batch.BatchState;
import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.arrow.testing.OurValues;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.Schema;
import dev.gatun.ffm.ReleaseUpcall;
import dev.gatun.ffm.internal.ArrowArray;
import dev.gatun.ffm.internal.ArrowSchema;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The single release upcall: idempotent, never lets a Throwable escape, release = NULL last, children. */
@ExtendWith(LeakCheckExtension.class)
class ReleaseCallbackTest {
    private static final Schema SCHEMA = Schema.of(Field.nullable("a", ArrowType.INT32), Field.nullable("s", ArrowType.UTF8));

    private static RecordBatch batch() {
        return OurValues.batch(SCHEMA, List.of(List.of(1, 2), List.of("x", "y")), 2);
    }

    @Test
    void aSecondCallThroughTheStubDoesNothing() {
        try (Arena arena = Arena.ofConfined(); RecordBatch batch = batch()) {
            MemorySegment struct = ArrowArray.allocate(arena);
            CDataExporter.exportBatch(batch, struct);
            MemorySegment stub = ArrowArray.release(struct);
            ArrowArray.release.invoke(stub, struct);
            assertEquals(BatchState.RELEASED, batch.state());
            ArrowArray.release.invoke(stub, struct); // a buggy consumer: must be harmless
            assertEquals(MemorySegment.NULL, ArrowArray.release(struct));
            assertTrue(ReleaseUpcall.failures().isEmpty());
        }
    }

    @Test
    void aThrowingHandlerIsRecordedAndReleaseStillBecomesNull() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment struct = ArrowSchema.allocate(arena);
            AtomicReference<MemorySegment> releaseDuringHandler = new AtomicReference<>();
            ArrowSchema.private_data(struct, ReleaseUpcall.register(s -> {
                releaseDuringHandler.set(ArrowSchema.release(s));
                throw new StackOverflowError("simulated");
            }));
            ArrowSchema.release(struct, ReleaseUpcall.stub());
            ArrowSchema.release.invoke(ReleaseUpcall.stub(), struct); // through native: must not kill the JVM
            assertEquals(ReleaseUpcall.stub().address(), releaseDuringHandler.get().address(), "release is cleared last");
            assertEquals(MemorySegment.NULL, ArrowSchema.release(struct));
            List<Throwable> failures = ReleaseUpcall.drainFailures();
            assertEquals(1, failures.size());
            assertInstanceOf(StackOverflowError.class, failures.get(0));
        }
    }

    @Test
    void aChildMovedOutOutlivesItsParent() {
        try (Arena arena = Arena.ofConfined(); RecordBatch batch = batch()) {
            MemorySegment parent = ArrowArray.allocate(arena);
            CDataExporter.exportBatch(batch, parent);
            MemorySegment childPointer = ArrowArray.children(parent).reinterpret(16).getAtIndex(ValueLayout.ADDRESS, 1)
                    .reinterpret(ArrowArray.sizeof());
            MemorySegment moved = ArrowArray.allocate(arena);
            moved.copyFrom(childPointer);
            ArrowArray.release(childPointer, MemorySegment.NULL);

            ReleaseUpcall.releaseArray(parent);
            assertEquals(BatchState.RELEASED, batch.state());
            assertNotEquals(0, batch.allocator().javaBytes(), "the moved child's buffers are still alive");
            MemorySegment data = ArrowArray.buffers(moved).reinterpret(24).getAtIndex(ValueLayout.ADDRESS, 2).reinterpret(2);
            assertEquals('x', (char) data.get(ValueLayout.JAVA_BYTE, 0));
            ReleaseUpcall.releaseArray(moved);
            assertEquals(0, batch.allocator().javaBytes());
        }
    }

    @Test
    void anExportedBatchIsOneRegistryEntryAndAChildReleasedTwiceIsFreedOnce() {
        try (Arena arena = Arena.ofConfined(); RecordBatch batch = batch()) {
            int before = ReleaseUpcall.registeredCount();
            MemorySegment parent = ArrowArray.allocate(arena);
            CDataExporter.exportBatch(batch, parent);
            assertEquals(before + 1, ReleaseUpcall.registeredCount(), "one entry for the root and both columns");
            MemorySegment childPointer = ArrowArray.children(parent).reinterpret(16).getAtIndex(ValueLayout.ADDRESS, 0)
                    .reinterpret(ArrowArray.sizeof());
            MemorySegment moved = ArrowArray.allocate(arena);
            moved.copyFrom(childPointer);
            ArrowArray.release(childPointer, MemorySegment.NULL);
            MemorySegment copy = ArrowArray.allocate(arena);
            copy.copyFrom(moved); // a buggy consumer releasing one node through two copies

            ReleaseUpcall.releaseArray(moved);
            long afterChild = batch.allocator().javaBytes();
            ReleaseUpcall.releaseArray(copy); // the node was claimed already: nothing happens
            assertEquals(afterChild, batch.allocator().javaBytes());
            assertEquals(before + 1, ReleaseUpcall.registeredCount(), "the root is still live");
            ReleaseUpcall.releaseArray(parent);
            assertEquals(before, ReleaseUpcall.registeredCount(), "the entry goes with the last node");
            assertEquals(0, batch.allocator().javaBytes());
            assertTrue(ReleaseUpcall.failures().isEmpty());
        }
    }

    @Test
    void exportedSchemaChildrenAreReleasedWithTheRoot() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment schema = ArrowSchema.allocate(arena);
            CDataExporter.exportSchema(SCHEMA, schema);
            assertEquals("+s", ArrowSchema.format(schema).reinterpret(8).getString(0));
            assertEquals(2, ArrowSchema.n_children(schema));
            int before = ReleaseUpcall.registeredCount();
            ArrowSchema.release.invoke(ArrowSchema.release(schema), schema);
            assertEquals(before - 3, ReleaseUpcall.registeredCount());
        }
    }
}
