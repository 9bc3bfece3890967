package dev.gatun.bench.jmh;

import dev.gatun.bench.arrowjava.ArrowJavaWriter;
import dev.gatun.bench.rows.RowBatch;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
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
 * Entry transpose, one 4096-row batch per operation (allocate, write row-major, release), for
 * each row shape. Implementations compared in the same run: Arrow Java growing {@code setSafe}
 * writer, Arrow Java pre-sized unchecked writer, and the physical floor in its two parts (add
 * {@code floorRead + floorCopy}). Gatun's transpose is
 * {@code transpose.EntryTransposeGatunBench.gatun} with the same {@code @Param}s: run both classes
 * in one JMH invocation; {@link CpuTimeProbe} times all of them in thread CPU time. Heap bytes
 * per row: run with {@code -prof gc} and divide {@code gc.alloc.rate.norm} by 4096.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {BenchJvm.NATIVE_ACCESS, BenchJvm.OPEN_NIO, BenchJvm.ARROW_UNSAFE,
    BenchJvm.ARROW_NO_NULL_CHECK})
public class EntryTransposeBench {
    /** {@code shape/format}: Nexmark Bid both ways, 20 mixed columns, three 200-byte strings, 3 of 40 columns. */
    @Param({"bid/generic", "bid/binary", "bid/stream", "bid/packed", "mixed20/binary", "strings/binary",
        "wide40/binary"})
    public String rows;

    private RowBatch batch;
    private BufferAllocator allocator;
    private ArrowJavaWriter growing;
    private ArrowJavaWriter presized;
    private PhysicalFloor floor;

    @Setup
    public void setUp() {
        batch = RowBatch.of(rows);
        allocator = new RootAllocator();
        int[] selected = batch.shape().selected();
        growing = new ArrowJavaWriter(allocator, ArrowJavaWriter.Mode.GROWING, batch.shape().rowType(), selected);
        presized = new ArrowJavaWriter(allocator, ArrowJavaWriter.Mode.PRESIZED, batch.shape().rowType(), selected);
        floor = new PhysicalFloor(batch.shape().rowType(), selected, batch.rows());
    }

    @TearDown
    public void tearDown() {
        floor.close();
        allocator.close(); // throws if a benchmark leaked a buffer
    }

    @Benchmark
    public int arrowJavaGrowing() {
        try (VectorSchemaRoot root = growing.write(batch.rows())) {
            return root.getRowCount();
        }
    }

    @Benchmark
    public int arrowJavaPresized() {
        try (VectorSchemaRoot root = presized.write(batch.rows())) {
            return root.getRowCount();
        }
    }

    @Benchmark
    public long floorRead() {
        return floor.read(batch.rows());
    }

    @Benchmark
    public void floorCopy() {
        floor.copy();
    }
}
