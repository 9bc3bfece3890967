package dev.gatun.bench.jmh;

import dev.gatun.bench.arrowjava.ArrowJavaCrossing;
import dev.gatun.bench.arrowjava.ArrowJavaWriter;
import dev.gatun.bench.rows.RowBatch;
import dev.gatun.bench.rows.RowFormat;
import dev.gatun.bench.rows.Shapes;
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
 * The crossing of one 4096-row, 10-column batch: export → {@code gatun_roundtrip} in Rust (import,
 * {@code validate_full}, zero-copy export) → import → release. The Rust function is the same for
 * every implementation; {@code arrowJavaJni} reaches it with Arrow Java's C Data structs (JNI
 * export/import and release callbacks). Gatun's arrow-ffm crossing joins as {@code gatun}.
 * {@code fixed10} has fixed-width columns only; {@code mixed10} adds two strings and a decimal,
 * whose full validation in Rust is linear in their bytes.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {BenchJvm.NATIVE_ACCESS, BenchJvm.OPEN_NIO, BenchJvm.ARROW_UNSAFE,
    BenchJvm.ARROW_NO_NULL_CHECK})
public class CrossingBench {
    /** Ten columns of the 20-column mixed row. */
    public static final int[] FIXED10 = {0, 1, 2, 3, 4, 5, 6, 7, 13, 14};
    public static final int[] MIXED10 = {0, 3, 4, 6, 7, 8, 10, 11, 13, 14};

    @Param({"fixed10", "mixed10"})
    public String columns;

    private BufferAllocator allocator;
    private VectorSchemaRoot source;
    private ArrowJavaCrossing crossing;

    @Setup
    public void setUp() {
        allocator = new RootAllocator();
        int[] selected = columns.equals("fixed10") ? FIXED10 : MIXED10;
        RowBatch batch = RowBatch.of(Shapes.MIXED20, RowFormat.BINARY, RowBatch.ROWS, RowBatch.SEED);
        source = new ArrowJavaWriter(allocator, ArrowJavaWriter.Mode.PRESIZED, Shapes.MIXED20.rowType(), selected)
                .write(batch.rows());
        crossing = new ArrowJavaCrossing(allocator, source.getSchema());
    }

    @TearDown
    public void tearDown() {
        crossing.close();
        source.close();
        allocator.close();
    }

    @Benchmark
    public int arrowJavaJni() {
        VectorSchemaRoot back = crossing.roundtrip(source);
        int rows = back.getRowCount();
        back.clear(); // releases the imported buffers: Rust's release, then the export's release
        return rows;
    }
}
