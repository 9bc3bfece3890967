package dev.gatun.arrow.cdata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.batch.BatchState;
import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.arrow.testing.OurValues;
import dev.gatun.arrow.testing.TestTypes;
import dev.gatun.arrow.testing.TestValues;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.Schema;
import dev.gatun.ffm.GatunNative;
import dev.gatun.ffm.ReleaseUpcall;
import dev.gatun.ffm.internal.ArrowArray;
import dev.gatun.ffm.internal.ArrowSchema;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Exported batches are released from other threads (through the native function pointer, i.e.
 * the upcall, and through Rust dropping its import of our export) while the owner thread keeps
 * allocating and exporting.
 */
@ExtendWith(LeakCheckExtension.class)
class ConcurrentReleaseTest {
    private static final Schema SCHEMA = new Schema(List.of(
            Field.nullable("i", ArrowType.INT32), Field.nullable("s", ArrowType.UTF8), TestTypes.listOfStructOfMap()),
            Map.of());
    private static final MemorySegment POISON = MemorySegment.ofAddress(1);

    @Test
    void javaExportsReleasedByOtherThreadsWhileTheOwnerAllocates() throws Exception {
        runWithReleasers(1_500, (random, arena) -> {
            MemorySegment struct = ArrowArray.allocate(arena);
            try (RecordBatch batch = batch(random)) {
                CDataExporter.exportBatch(batch, struct);
                assertEquals(BatchState.EXPORTED, batch.state());
            }
            return struct;
        });
    }

    @Test
    void rustOutputsReleasedByOtherThreadsWhileTheOwnerAllocates() throws Exception {
        try (Arena schemas = Arena.ofConfined()) {
            MemorySegment inSchema = ArrowSchema.allocate(schemas);
            CDataExporter.exportSchema(SCHEMA, inSchema);
            try {
                runWithReleasers(500, (random, arena) -> {
                    MemorySegment in = ArrowArray.allocate(arena);
                    MemorySegment out = ArrowArray.allocate(arena);
                    try (Arena call = Arena.ofConfined(); RecordBatch batch = batch(random)) {
                        MemorySegment outSchema = ArrowSchema.allocate(call);
                        CDataExporter.exportBatch(batch, in);
                        GatunNative.roundtrip(inSchema, in, outSchema, out);
                        ReleaseUpcall.releaseSchema(outSchema);
                    }
                    return out; // released elsewhere: Rust drops its import and calls our release there
                });
            } finally {
                ReleaseUpcall.releaseSchema(inSchema);
            }
        }
    }

    @Test
    void racingReleasesOfOneStructRunItsHandlerOnce() throws Exception {
        for (int round = 0; round < 200; round++) {
            try (Arena arena = Arena.ofShared()) {
                MemorySegment struct = ArrowArray.allocate(arena);
                RecordBatch batch = batch(new Random(round));
                CDataExporter.exportBatch(batch, struct);
                MemorySegment stub = ArrowArray.release(struct);
                CountDownLatch start = new CountDownLatch(1);
                List<Thread> threads = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    Thread thread = new Thread(() -> {
                        try {
                            start.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        ArrowArray.release.invoke(stub, struct);
                    });
                    thread.start();
                    threads.add(thread);
                }
                start.countDown();
                for (Thread thread : threads) {
                    thread.join();
                }
                assertEquals(BatchState.RELEASED, batch.state());
                assertEquals(MemorySegment.NULL, ArrowArray.release(struct));
                assertEquals(0, NativeAllocator.root().javaBytes());
            }
        }
        assertTrue(ReleaseUpcall.failures().isEmpty(), ReleaseUpcall.failures().toString());
    }

    interface Producer {
        MemorySegment next(Random random, Arena structs) throws Exception;
    }

    /** The owner thread produces structs; three threads release them through the C function pointer. */
    private static void runWithReleasers(int count, Producer producer) throws Exception {
        BlockingQueue<MemorySegment> queue = new ArrayBlockingQueue<>(64);
        List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
        try (Arena structs = Arena.ofShared()) {
            List<Thread> releasers = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                Thread thread = new Thread(() -> {
                    try {
                        for (MemorySegment s = queue.take(); s != POISON; s = queue.take()) {
                            ArrowArray.release.invoke(ArrowArray.release(s), s);
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                }, "releaser-" + t);
                thread.start();
                releasers.add(thread);
            }
            Random random = new Random(5);
            try {
                for (int i = 0; i < count; i++) {
                    MemorySegment s = producer.next(random, structs);
                    assertTrue(queue.offer(s, 30, TimeUnit.SECONDS));
                    // keep allocating while the releasers free
                    try (RecordBatch scratch = batch(random)) {
                        assertEquals(BatchState.SEALED, scratch.state());
                    }
                }
            } finally {
                for (int t = 0; t < releasers.size(); t++) {
                    queue.put(POISON);
                }
                for (Thread thread : releasers) {
                    thread.join();
                }
            }
        }
        assertTrue(errors.isEmpty(), errors.toString());
    }

    private static RecordBatch batch(Random random) {
        int rows = 1 + random.nextInt(64);
        List<List<Object>> values = new ArrayList<>();
        for (Field f : SCHEMA.fields()) {
            values.add(TestValues.column(f, rows, TestValues.Nulls.RANDOM, random));
        }
        return OurValues.batch(SCHEMA, values, rows);
    }
}
