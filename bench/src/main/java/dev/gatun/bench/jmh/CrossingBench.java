package dev.gatun.bench.jmh;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.cdata.ArrowCall;
import dev.gatun.arrow.cdata.CDataExporter;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.types.Schema;
import dev.gatun.bench.arrowjava.ArrowJavaCrossing;
import dev.gatun.bench.arrowjava.ArrowJavaWriter;
import dev.gatun.bench.rows.RowBatch;
import dev.gatun.bench.rows.RowFormat;
import dev.gatun.bench.rows.Shapes;
import dev.gatun.ffm.GatunNative;
import dev.gatun.ffm.ReleaseUpcall;
import dev.gatun.ffm.internal.ArrowSchema;
import dev.gatun.transpose.entry.BatchWriter;
import dev.gatun.transpose.types.TypeMapping;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.table.data.RowData;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
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
 * The crossing of one 4096-row, 10-column batch: export → Rust → import → release.
 * <ul>
 *   <li>{@code gatun}: arrow-ffm's production crossing ({@code ArrowCall.exchange}: export of a
 *       SEALED batch, {@code gatun_passthrough}, import with its checks, release of the import,
 *       which releases the export through Rust);
 *   <li>{@code arrowJavaJniPassthrough}: the same Rust function reached with Arrow Java's C Data
 *       structs (JNI export/import and release callbacks);
 *   <li>{@code arrowJavaJni}: Arrow Java through {@code gatun_roundtrip}, which also runs arrow-rs
 *       {@code validate_full} (linear in the strings' bytes) and exports the schema per call.
 * </ul>
 * {@code gatun_passthrough} moves the array in, checks its shape and imports it as
 * {@code gatun_calc_evaluate} does, and hands the same buffers back without reading values. An
 * exported arrow-ffm batch cannot be exported again, so {@code gatun} gets a freshly written batch
 * per invocation ({@link GatunBatch}, {@code Level.Invocation}: not timed, but each invocation
 * carries JMH's two timestamps, a few tens of ns). {@code fixed10} has fixed-width columns only;
 * {@code mixed10} adds three strings and a decimal.
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

    /** A SEALED arrow-ffm batch of the same rows and columns, written before each invocation. */
    @State(Scope.Thread)
    public static class GatunBatch {
        private NativeAllocator allocator;
        private BatchWriter writer;
        private RowData[] rows;
        private Schema schema;
        private MemorySegment passthrough;
        RecordBatch batch;

        @Setup
        public void setUp(CrossingBench bench) {
            int[] selected = bench.columns.equals("fixed10") ? FIXED10 : MIXED10;
            RowBatch source = RowBatch.of(Shapes.MIXED20, RowFormat.BINARY, RowBatch.ROWS, RowBatch.SEED);
            rows = source.rows();
            List<int[]> paths = new ArrayList<>();
            for (int field : selected) {
                paths.add(new int[] {field});
            }
            allocator = NativeAllocator.create("crossing-bench", Long.MAX_VALUE);
            writer = new BatchWriter(Shapes.MIXED20.rowType(), paths, TypeMapping.defaults(), RowBatch.ROWS, true,
                    allocator);
            schema = writer.schema();
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment exported = ArrowSchema.allocate(arena);
                CDataExporter.exportSchema(allocator, schema, exported);
                try {
                    passthrough = GatunNative.passthroughCreate(exported);
                } finally {
                    ReleaseUpcall.releaseSchema(exported);
                }
            }
        }

        @Setup(Level.Invocation)
        public void write() {
            for (RowData row : rows) {
                writer.write(row);
            }
            batch = writer.finish();
        }

        @TearDown(Level.Invocation)
        public void releaseUnused() {
            if (batch != null && batch.state() == dev.gatun.arrow.batch.BatchState.SEALED) {
                batch.close();
            }
            batch = null;
        }

        @TearDown
        public void tearDown() {
            GatunNative.passthroughFree(passthrough);
            writer.close();
            allocator.close(); // throws if a batch leaked
        }
    }

    @Benchmark
    public int gatun(GatunBatch state) {
        MemorySegment handle = state.passthrough;
        try (RecordBatch back = ArrowCall.exchange(state.batch, state.allocator,
                (in, out) -> GatunNative.passthrough(handle, in, out), () -> state.schema)) {
            return back.rowCount();
        }
    }

    @Benchmark
    public int arrowJavaJniPassthrough() {
        VectorSchemaRoot back = crossing.passthrough(source);
        int rows = back.getRowCount();
        back.clear(); // releases the imported buffers: Rust's release, then the export's release
        return rows;
    }

    @Benchmark
    public int arrowJavaJni() {
        VectorSchemaRoot back = crossing.roundtrip(source);
        int rows = back.getRowCount();
        back.clear(); // releases the imported buffers: Rust's release, then the export's release
        return rows;
    }
}
