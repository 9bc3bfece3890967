package dev.gatun.bench.jmh.transpose;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.bench.rows.RowBatch;
import dev.gatun.transpose.entry.BatchWriter;
import dev.gatun.transpose.types.TypeMapping;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.table.data.RowData;
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
 * Gatun's entry transpose on the rows of {@code dev.gatun.bench.jmh.EntryTransposeBench}: one
 * 4096-row batch per operation (allocate, write every row, seal, release), the same cycle and the
 * same {@code @Param}s as that class's Arrow Java writers and physical floor. Run both classes in
 * one JMH invocation to compare ({@code floorRead + floorCopy} is the floor). Heap bytes per row:
 * {@code -prof gc}, {@code gc.alloc.rate.norm / 4096}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class EntryTransposeGatunBench {
    @Param({"bid/generic", "bid/binary", "bid/stream", "bid/packed", "mixed20/binary", "strings/binary",
        "wide40/binary"})
    public String rows;

    private RowData[] input;
    private NativeAllocator allocator;
    private BatchWriter writer;

    @Setup
    public void setUp() {
        RowBatch batch = RowBatch.of(rows);
        input = batch.rows();
        List<int[]> paths = new ArrayList<>();
        for (int field : batch.shape().selected()) {
            paths.add(new int[] {field});
        }
        allocator = NativeAllocator.create("entry-transpose-bench", Long.MAX_VALUE);
        writer = new BatchWriter(batch.shape().rowType(), paths, TypeMapping.defaults(), RowBatch.ROWS, true,
                allocator);
    }

    @TearDown
    public void tearDown() {
        writer.close();
        allocator.close(); // throws if a batch leaked
    }

    @Benchmark
    public int gatun() {
        for (RowData row : input) {
            writer.write(row);
        }
        try (RecordBatch batch = writer.finish()) {
            return batch.rowCount();
        }
    }
}
