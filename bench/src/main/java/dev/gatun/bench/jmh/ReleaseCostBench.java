package dev.gatun.bench.jmh;

import dev.gatun.ffm.NativeMemory;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of giving a batch its memory and taking it back (docs/memory.md): ten 64-byte-aligned
 * buffers totalling 200 KiB per operation, as one batch of a few columns would hold.
 *
 * <ul>
 *   <li>{@code sharedArena}: {@code Arena.ofShared()} per batch, allocate, close (the close
 *       handshakes with every thread: compare {@code idleThreads} 0 and 8);
 *   <li>{@code rawThroughConfined}: the chosen design — raw {@link NativeMemory} allocations,
 *       seen through a confined arena ({@code reinterpret(size, arena, null)}), arena closed, raw
 *       memory freed;
 *   <li>{@code confinedArena}: {@code Arena.ofConfined()} allocate and close alone.
 * </ul>
 * Arena allocations are zeroed; raw ones are not (the chosen design zeroes only validity bitmaps).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {BenchJvm.NATIVE_ACCESS})
public class ReleaseCostBench {
    static final long[] SIZES = {32768, 32768, 32768, 32768, 16384, 16384, 16384, 16384, 4096, 4096};
    private static final long ALIGN = 64;

    @Param({"0", "8"})
    public int idleThreads;

    private final List<Thread> idle = new ArrayList<>();
    private final CountDownLatch stop = new CountDownLatch(1);
    private final MemorySegment[] raw = new MemorySegment[SIZES.length];

    @Setup
    public void startIdleThreads() {
        for (int i = 0; i < idleThreads; i++) {
            Thread t = new Thread(() -> {
                try {
                    stop.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "idle-" + i);
            t.setDaemon(true);
            t.start();
            idle.add(t);
        }
    }

    @TearDown
    public void stopIdleThreads() throws InterruptedException {
        stop.countDown();
        for (Thread t : idle) {
            t.join();
        }
    }

    @Benchmark
    public long sharedArena() {
        long sum = 0;
        try (Arena arena = Arena.ofShared()) {
            for (long size : SIZES) {
                sum += arena.allocate(size, ALIGN).address();
            }
        }
        return sum;
    }

    @Benchmark
    public long rawThroughConfined() {
        long sum = 0;
        int allocated = 0;
        try {
            for (; allocated < SIZES.length; allocated++) {
                raw[allocated] = NativeMemory.allocate(SIZES[allocated]);
                if (raw[allocated].address() == 0) {
                    throw new OutOfMemoryError("aligned_alloc failed");
                }
            }
            try (Arena arena = Arena.ofConfined()) {
                for (int i = 0; i < SIZES.length; i++) {
                    MemorySegment view = raw[i].reinterpret(SIZES[i], arena, null);
                    sum += view.address() + view.byteSize();
                }
            }
        } finally {
            for (int i = 0; i < allocated; i++) {
                NativeMemory.free(raw[i]);
            }
        }
        return sum;
    }

    @Benchmark
    public long confinedArena() {
        long sum = 0;
        try (Arena arena = Arena.ofConfined()) {
            for (long size : SIZES) {
                sum += arena.allocate(size, ALIGN).address();
            }
        }
        return sum;
    }
}
