package dev.gatun.arrow.bench;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.cdata.CDataExporter;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.Schema;
import dev.gatun.arrow.vector.Int64Vector;
import dev.gatun.arrow.vector.VarBinaryVector;
import dev.gatun.ffm.internal.ArrowArray;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;

/**
 * A small, honest measurement of what one batch's memory costs under each ownership model
 * (docs/memory.md). Not a JMH benchmark (that belongs in the bench module): plain nanoTime around
 * each operation after a warm-up, medians and 90th percentiles, on whatever machine runs it.
 * Never run by the tests.
 *
 * <p>Models, each with a batch of {@code ROWS} rows of (int64, utf8 of ~12 bytes):
 * <ol>
 *   <li>gatun: raw aligned_alloc + confined arena views; export closes the arena; the consumer's
 *       release (called through the C function pointer on another thread) frees the raw memory;</li>
 *   <li>shared: one {@code Arena.ofShared()} per batch; release = closing it from another thread;</li>
 *   <li>confined + hand-back: one {@code Arena.ofConfined()} per batch; release may only enqueue,
 *       the owner thread closes it later (leaks if the owner is gone).</li>
 * </ol>
 */
public final class ReleaseCostHarness {
    private static final int ROWS = 1024;
    private static final int WARMUP = 60_000;
    private static final int RUNS = 20_000;
    private static final Schema SCHEMA = Schema.of(Field.nullable("i", ArrowType.INT64), Field.nullable("s", ArrowType.UTF8));
    private static final byte[] VALUE = "value-012345".getBytes();

    public static void main(String[] args) throws Exception {
        int idleThreads = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        CountDownLatch stop = new CountDownLatch(1);
        for (int i = 0; i < idleThreads; i++) {
            Thread t = new Thread(() -> {
                try {
                    stop.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            t.setDaemon(true);
            t.start();
        }
        System.out.printf("JDK %s, %d cores, %d idle extra threads, batch of %d rows (int64, utf8)%n",
                Runtime.version(), Runtime.getRuntime().availableProcessors(), idleThreads, ROWS);
        gatun();
        shared();
        confinedHandBack();
        arenaOnly();
        stop.countDown();
    }

    /** Our model: export hands raw memory to the release callback, run on another thread. */
    private static void gatun() throws Exception {
        long[] create = new long[RUNS];
        long[] export = new long[RUNS];
        long[] release = new long[RUNS];
        BlockingQueue<MemorySegment> queue = new ArrayBlockingQueue<>(1);
        BlockingQueue<Long> times = new ArrayBlockingQueue<>(1);
        Thread releaser = new Thread(() -> {
            try {
                while (true) {
                    MemorySegment s = queue.take();
                    if (s.address() == 0) {
                        return;
                    }
                    long t0 = System.nanoTime();
                    ArrowArray.release.invoke(ArrowArray.release(s), s);
                    times.put(System.nanoTime() - t0);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        releaser.start();
        try (Arena structs = Arena.ofShared()) {
            MemorySegment struct = ArrowArray.allocate(structs);
            for (int i = -WARMUP; i < RUNS; i++) {
                long t0 = System.nanoTime();
                RecordBatch batch = RecordBatch.allocate(SCHEMA, ROWS);
                fill(batch);
                long t1 = System.nanoTime();
                CDataExporter.exportBatch(batch, struct);
                long t2 = System.nanoTime();
                queue.put(struct);
                long r = times.take();
                if (i >= 0) {
                    create[i] = t1 - t0;
                    export[i] = t2 - t1;
                    release[i] = r;
                }
            }
            queue.put(MemorySegment.NULL);
        }
        releaser.join();
        report("gatun   allocate+write+seal", create);
        report("gatun   export (closes confined arena)", export);
        report("gatun   release on another thread (upcall, frees raw)", release);
    }

    /** One shared arena per batch: any thread may close it, at the price of a handshake. */
    private static void shared() throws Exception {
        long[] create = new long[RUNS];
        long[] release = new long[RUNS];
        BlockingQueue<Arena> queue = new ArrayBlockingQueue<>(1);
        BlockingQueue<Long> times = new ArrayBlockingQueue<>(1);
        Arena poison = Arena.ofConfined();
        Thread releaser = new Thread(() -> {
            try {
                for (Arena a = queue.take(); a != poison; a = queue.take()) {
                    long t0 = System.nanoTime();
                    a.close();
                    times.put(System.nanoTime() - t0);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        releaser.start();
        for (int i = -WARMUP; i < RUNS; i++) {
            long t0 = System.nanoTime();
            Arena arena = Arena.ofShared();
            fillRaw(arena);
            long t1 = System.nanoTime();
            queue.put(arena);
            long r = times.take();
            if (i >= 0) {
                create[i] = t1 - t0;
                release[i] = r;
            }
        }
        queue.put(poison);
        releaser.join();
        poison.close();
        report("shared  allocate+write", create);
        report("shared  release = close on another thread", release);
    }

    /** One confined arena per batch; the release can only ask the owner to close it. */
    private static void confinedHandBack() {
        long[] create = new long[RUNS];
        long[] close = new long[RUNS];
        for (int i = -WARMUP; i < RUNS; i++) {
            long t0 = System.nanoTime();
            Arena arena = Arena.ofConfined();
            fillRaw(arena);
            long t1 = System.nanoTime();
            arena.close();
            long t2 = System.nanoTime();
            if (i >= 0) {
                create[i] = t1 - t0;
                close[i] = t2 - t1;
            }
        }
        report("confined allocate+write", create);
        report("confined close on the owner thread (after hand-back)", close);
    }

    /** The arena operations alone, 64 KiB each. */
    private static void arenaOnly() {
        long[] shared = new long[RUNS];
        long[] confined = new long[RUNS];
        for (int i = -WARMUP; i < RUNS; i++) {
            long t0 = System.nanoTime();
            try (Arena a = Arena.ofShared()) {
                a.allocate(64 * 1024, 64);
            }
            long t1 = System.nanoTime();
            try (Arena a = Arena.ofConfined()) {
                a.allocate(64 * 1024, 64);
            }
            long t2 = System.nanoTime();
            if (i >= 0) {
                shared[i] = t1 - t0;
                confined[i] = t2 - t1;
            }
        }
        report("Arena.ofShared() allocate 64 KiB + close", shared);
        report("Arena.ofConfined() allocate 64 KiB + close", confined);
    }

    private static void fill(RecordBatch batch) {
        Int64Vector ints = batch.column(0, Int64Vector.class);
        VarBinaryVector strings = batch.column(1, VarBinaryVector.class);
        for (int r = 0; r < ROWS; r++) {
            ints.setLong(r, r);
            strings.setBytes(r, VALUE);
        }
        batch.seal(ROWS);
    }

    /** The same buffers, written the same way, straight from an arena. */
    private static void fillRaw(Arena arena) {
        MemorySegment ints = arena.allocate(8L * ROWS, 64);
        MemorySegment offsets = arena.allocate(4L * (ROWS + 1), 64);
        MemorySegment data = arena.allocate(16L * ROWS, 64);
        offsets.set(ValueLayout.JAVA_INT, 0, 0);
        int end = 0;
        for (int r = 0; r < ROWS; r++) {
            ints.setAtIndex(ValueLayout.JAVA_LONG, r, r);
            MemorySegment.copy(VALUE, 0, data, ValueLayout.JAVA_BYTE, end, VALUE.length);
            end += VALUE.length;
            offsets.setAtIndex(ValueLayout.JAVA_INT, r + 1, end);
        }
    }

    private static void report(String what, long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        System.out.printf("%-58s median %8.2f us   p90 %8.2f us%n", what,
                sorted[sorted.length / 2] / 1000.0, sorted[sorted.length * 9 / 10] / 1000.0);
    }
}
