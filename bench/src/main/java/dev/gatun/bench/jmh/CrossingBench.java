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
import dev.gatun.bench.rows.RowShape;
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
import java.util.function.UnaryOperator;
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
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The crossing of one 4096-row batch of issue 5's shape ({@link Shapes#CROSSING10}: 4 BIGINT,
 * 2 DOUBLE, 1 INT, 3 STRING of ~40 bytes, NULLs in three columns): export → Rust → import →
 * release, both implementations in one run.
 * <ul>
 *   <li>{@code gatun}: arrow-ffm's production crossing ({@code ArrowCall.exchange}, the one
 *       {@code NativeOperator.process} makes: export of a SEALED batch, {@code gatun_passthrough}, import
 *       with its checks, release of the import, which releases the export through Rust);
 *   <li>{@code gatunEmpty}: the same with 0-row batches of the same schema: the fixed per-call
 *       part (structs, registry, downcall, release upcall), without the per-row offset checks;
 *   <li>{@code gatunExportRelease}: export only, released at once from Java (no native call);
 *   <li>{@code arrowJavaJniPassthrough}: the same Rust function reached with Arrow Java's C Data
 *       structs (JNI export/import and release callbacks);
 *   <li>{@code arrowJavaJni}: Arrow Java through {@code gatun_roundtrip}, which also runs arrow-rs
 *       {@code validate_full} (linear in the strings' bytes) and exports the schema per call.
 * </ul>
 * {@code gatun_passthrough} moves the array in, checks its shape and imports it as
 * {@code gatun_calc_evaluate} does, and exports the same buffers back without reading values. An
 * exported arrow-ffm batch cannot be exported again, so every invocation crosses a pool of
 * {@value #POOL} batches written before it (untimed, {@code Level.Invocation}) and the score is
 * per batch ({@code @OperationsPerInvocation}); the Arrow Java benchmarks cross {@value #POOL}
 * distinct (re-usable) batches per invocation alike, so both sides carry the same JMH overhead and
 * touch as much memory. Closing a gatun batch frees its buffers (they were written for it); Arrow
 * Java's sources are reused, so its side frees no data buffers.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {BenchJvm.NATIVE_ACCESS, BenchJvm.OPEN_NIO, BenchJvm.ARROW_UNSAFE,
    BenchJvm.ARROW_NO_NULL_CHECK})
public class CrossingBench {
    /** Batches crossed per invocation. */
    public static final int POOL = 16;
    /** The batch's rows and columns. */
    public static final RowShape SHAPE = Shapes.CROSSING10;

    private BufferAllocator allocator;
    /** {@value #POOL} distinct Arrow Java batches of the same rows, as the gatun side crosses distinct batches. */
    private final VectorSchemaRoot[] sources = new VectorSchemaRoot[POOL];
    private ArrowJavaCrossing crossing;

    @Setup
    public void setUp() {
        allocator = new RootAllocator();
        RowBatch batch = RowBatch.of(SHAPE, RowFormat.BINARY, RowBatch.ROWS, RowBatch.SEED);
        ArrowJavaWriter writer = new ArrowJavaWriter(allocator, ArrowJavaWriter.Mode.PRESIZED, SHAPE.rowType(),
                SHAPE.selected());
        for (int i = 0; i < POOL; i++) {
            sources[i] = writer.write(batch.rows());
        }
        crossing = new ArrowJavaCrossing(allocator, sources[0].getSchema());
    }

    @TearDown
    public void tearDown() {
        crossing.close();
        for (VectorSchemaRoot source : sources) {
            source.close();
        }
        allocator.close();
    }

    /** {@value #POOL} SEALED arrow-ffm batches of the same rows and columns, written before each invocation. */
    @State(Scope.Thread)
    public static class GatunBatches {
        private NativeAllocator allocator;
        private BatchWriter writer;
        private RowData[] rows;
        private Schema schema;
        private MemorySegment passthrough;
        final RecordBatch[] batches = new RecordBatch[POOL];
        final RecordBatch[] empty = new RecordBatch[POOL];

        @Setup
        public void setUp() {
            rows = RowBatch.of(SHAPE, RowFormat.BINARY, RowBatch.ROWS, RowBatch.SEED).rows();
            allocator = NativeAllocator.create("crossing-bench", Long.MAX_VALUE);
            writer = writer(allocator);
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

        /** A writer of {@link #SHAPE}'s batches, every field a column. */
        static BatchWriter writer(NativeAllocator allocator) {
            List<int[]> paths = new ArrayList<>();
            for (int field : SHAPE.selected()) {
                paths.add(new int[] {field});
            }
            return new BatchWriter(SHAPE.rowType(), paths, TypeMapping.defaults(), RowBatch.ROWS, true, allocator);
        }

        /** Writes the pool; empty (0-row) batches only for {@code gatunEmpty}. */
        void write(boolean full) {
            for (int i = 0; i < POOL; i++) {
                if (full) {
                    for (RowData row : rows) {
                        writer.write(row);
                    }
                    batches[i] = writer.finish();
                } else {
                    empty[i] = writer.finish();
                }
            }
        }

        @TearDown(Level.Invocation)
        public void releaseUnused() {
            for (RecordBatch[] pool : List.of(batches, empty)) {
                for (int i = 0; i < POOL; i++) {
                    RecordBatch b = pool[i];
                    if (b != null && b.state() == dev.gatun.arrow.batch.BatchState.SEALED) {
                        b.close();
                    }
                    pool[i] = null;
                }
            }
        }

        @TearDown
        public void tearDown() {
            GatunNative.passthroughFree(passthrough);
            writer.close();
            allocator.close(); // throws if a batch leaked
        }

        int cross(RecordBatch[] pool) {
            MemorySegment handle = passthrough;
            int rows = 0;
            for (int i = 0; i < POOL; i++) {
                try (RecordBatch back = ArrowCall.exchange(pool[i], allocator,
                        (in, out) -> GatunNative.passthrough(handle, in, out), () -> schema)) {
                    rows += back.rowCount();
                }
            }
            return rows;
        }
    }

    /** The pool of full batches for {@code gatun} and {@code gatunExportRelease}. */
    @State(Scope.Thread)
    public static class FullPool {
        GatunBatches pool;

        @Setup(Level.Invocation)
        public void write(GatunBatches batches) {
            pool = batches;
            batches.write(true);
        }
    }

    /** The pool of 0-row batches for {@code gatunEmpty}. */
    @State(Scope.Thread)
    public static class EmptyPool {
        GatunBatches pool;

        @Setup(Level.Invocation)
        public void write(GatunBatches batches) {
            pool = batches;
            batches.write(false);
        }
    }

    @Benchmark
    @OperationsPerInvocation(POOL)
    public int gatun(FullPool state) {
        return state.pool.cross(state.pool.batches);
    }

    @Benchmark
    @OperationsPerInvocation(POOL)
    public int gatunEmpty(EmptyPool state) {
        return state.pool.cross(state.pool.empty);
    }

    @Benchmark
    @OperationsPerInvocation(POOL)
    public long gatunExportRelease(FullPool state, Scratch scratch) {
        long sum = 0;
        for (RecordBatch b : state.pool.batches) {
            CDataExporter.exportBatch(b, scratch.array);
            sum += dev.gatun.ffm.internal.ArrowArray.length(scratch.array);
            ReleaseUpcall.releaseArray(scratch.array);
        }
        return sum;
    }

    /** One reusable ArrowArray struct for {@code gatunExportRelease}. */
    @State(Scope.Thread)
    public static class Scratch {
        private final Arena arena = Arena.ofConfined();
        final MemorySegment array = dev.gatun.ffm.internal.ArrowArray.allocate(arena);

        @TearDown
        public void close() {
            arena.close();
        }
    }

    @Benchmark
    @OperationsPerInvocation(POOL)
    public int arrowJavaJniPassthrough() {
        return crossPool(crossing::passthrough);
    }

    @Benchmark
    @OperationsPerInvocation(POOL)
    public int arrowJavaJni() {
        return crossPool(crossing::roundtrip);
    }

    private int crossPool(UnaryOperator<VectorSchemaRoot> cross) {
        int rows = 0;
        for (int i = 0; i < POOL; i++) {
            VectorSchemaRoot back = cross.apply(sources[i]);
            rows += back.getRowCount();
            back.clear(); // releases the imported buffers: Rust's release, then the export's release
        }
        return rows;
    }
}
