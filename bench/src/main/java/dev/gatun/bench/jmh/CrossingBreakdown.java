package dev.gatun.bench.jmh;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.cdata.CDataExporter;
import dev.gatun.arrow.cdata.CDataImporter;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.types.Schema;
import dev.gatun.bench.arrowjava.ArrowJavaCrossing;
import dev.gatun.bench.arrowjava.ArrowJavaWriter;
import dev.gatun.bench.rows.RowBatch;
import dev.gatun.bench.rows.RowFormat;
import dev.gatun.ffm.GatunNative;
import dev.gatun.ffm.ReleaseUpcall;
import dev.gatun.ffm.internal.ArrowArray;
import dev.gatun.ffm.internal.ArrowSchema;
import dev.gatun.transpose.entry.BatchWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.RowData;

/**
 * Where the time of {@link CrossingBench#gatun} goes, next to Arrow Java's JNI crossing through
 * the same Rust function ({@link CrossingBench#arrowJavaJniPassthrough}, also over a pool of
 * distinct batches) in the same rounds: the four steps of {@code ArrowCall.exchange} timed apart,
 * each over a pool of batches (export all, then call all, import all, close all), in
 * wall time, in the thread's CPU time (which a loaded machine inflates less) and in heap bytes
 * allocated (which it does not change). Not JMH: the
 * steps cannot be separated inside one benchmark invocation.
 *
 * <p>{@code java ... dev.gatun.bench.jmh.CrossingBreakdown [rounds] [full|empty]}: each round
 * writes 32 batches of {@link CrossingBench#SHAPE} (4096 rows, or 0 for {@code empty}; untimed)
 * and crosses them; the second half of the rounds counts.
 */
public final class CrossingBreakdown {
    private static final int POOL = 32;
    private static final String[] STEPS = {"export", "gatun_passthrough", "import", "close (release)",
        "Arrow Java JNI"};
    /** The first steps, which together are the gatun crossing. */
    private static final int GATUN_STEPS = 4;

    private CrossingBreakdown() {}

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        String columns = args.length > 1 ? args[1] : "full";
        boolean empty = columns.equals("empty");
        RowData[] rows = RowBatch.of(CrossingBench.SHAPE, RowFormat.BINARY, RowBatch.ROWS, RowBatch.SEED).rows();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (NativeAllocator allocator = NativeAllocator.create("crossing-breakdown", Long.MAX_VALUE);
             BatchWriter writer = CrossingBench.GatunBatches.writer(allocator);
             Arena arena = Arena.ofConfined();
             BufferAllocator arrowAllocator = new RootAllocator()) {
            // Arrow Java crosses POOL distinct batches per round too (the same rows), through the same Rust function.
            ArrowJavaWriter arrowWriter = new ArrowJavaWriter(arrowAllocator, ArrowJavaWriter.Mode.PRESIZED,
                    CrossingBench.SHAPE.rowType(), CrossingBench.SHAPE.selected());
            VectorSchemaRoot[] sources = new VectorSchemaRoot[POOL];
            for (int i = 0; i < POOL; i++) {
                sources[i] = arrowWriter.write(empty ? new RowData[0] : rows);
            }
            ArrowJavaCrossing arrowJava = new ArrowJavaCrossing(arrowAllocator, sources[0].getSchema());
            Schema schema = writer.schema();
            MemorySegment exported = ArrowSchema.allocate(arena);
            CDataExporter.exportSchema(allocator, schema, exported);
            MemorySegment handle;
            try {
                handle = GatunNative.passthroughCreate(exported);
            } finally {
                ReleaseUpcall.releaseSchema(exported);
            }
            try {
                MemorySegment[] in = new MemorySegment[POOL];
                MemorySegment[] out = new MemorySegment[POOL];
                for (int i = 0; i < POOL; i++) {
                    in[i] = ArrowArray.allocate(arena);
                    out[i] = ArrowArray.allocate(arena);
                }
                RecordBatch[] pool = new RecordBatch[POOL];
                RecordBatch[] back = new RecordBatch[POOL];
                long[] wall = new long[STEPS.length];
                long[] cpu = new long[STEPS.length];
                long[] heap = new long[STEPS.length];
                long counted = 0;
                for (int r = 0; r < rounds; r++) {
                    for (int i = 0; i < POOL; i++) {
                        if (!empty) {
                            for (RowData row : rows) {
                                writer.write(row);
                            }
                        }
                        pool[i] = writer.finish();
                    }
                    long[] w = new long[STEPS.length + 1];
                    long[] c = new long[STEPS.length + 1];
                    long[] h = new long[STEPS.length + 1];
                    w[0] = System.nanoTime();
                    c[0] = threads.getCurrentThreadCpuTime();
                    h[0] = threads.getCurrentThreadAllocatedBytes();
                    for (int i = 0; i < POOL; i++) {
                        CDataExporter.exportBatch(pool[i], in[i]);
                    }
                    w[1] = System.nanoTime();
                    c[1] = threads.getCurrentThreadCpuTime();
                    h[1] = threads.getCurrentThreadAllocatedBytes();
                    for (int i = 0; i < POOL; i++) {
                        GatunNative.passthrough(handle, in[i], out[i]);
                    }
                    w[2] = System.nanoTime();
                    c[2] = threads.getCurrentThreadCpuTime();
                    h[2] = threads.getCurrentThreadAllocatedBytes();
                    for (int i = 0; i < POOL; i++) {
                        back[i] = CDataImporter.importBatch(allocator, out[i], schema);
                    }
                    w[3] = System.nanoTime();
                    c[3] = threads.getCurrentThreadCpuTime();
                    h[3] = threads.getCurrentThreadAllocatedBytes();
                    for (int i = 0; i < POOL; i++) {
                        back[i].close();
                    }
                    w[4] = System.nanoTime();
                    c[4] = threads.getCurrentThreadCpuTime();
                    h[4] = threads.getCurrentThreadAllocatedBytes();
                    for (int i = 0; i < POOL; i++) {
                        arrowJava.passthrough(sources[i]).clear();
                    }
                    w[5] = System.nanoTime();
                    c[5] = threads.getCurrentThreadCpuTime();
                    h[5] = threads.getCurrentThreadAllocatedBytes();
                    if (r >= rounds / 2) {
                        for (int s = 0; s < STEPS.length; s++) {
                            wall[s] += w[s + 1] - w[s];
                            cpu[s] += c[s + 1] - c[s];
                            heap[s] += h[s + 1] - h[s];
                        }
                        counted += POOL;
                    }
                }
                System.out.printf("%s %s, %d batches counted, us per batch (wall / thread CPU), heap bytes per batch:%n", CrossingBench.SHAPE.name(), columns, counted);
                for (int s = 0; s < STEPS.length; s++) {
                    System.out.printf("  %-18s %7.2f / %7.2f  %7d B%n", STEPS[s], wall[s] / 1e3 / counted,
                            cpu[s] / 1e3 / counted, heap[s] / counted);
                }
                long gatunWall = 0;
                long gatunCpu = 0;
                for (int s = 0; s < GATUN_STEPS; s++) {
                    gatunWall += wall[s];
                    gatunCpu += cpu[s];
                }
                System.out.printf("  %-18s %7.2f / %7.2f%n", "gatun, whole", gatunWall / 1e3 / counted,
                        gatunCpu / 1e3 / counted);
                System.out.printf("  Arrow Java JNI / gatun: %.2fx wall, %.2fx thread CPU%n",
                        (double) wall[GATUN_STEPS] / gatunWall, (double) cpu[GATUN_STEPS] / gatunCpu);
            } finally {
                GatunNative.passthroughFree(handle);
                arrowJava.close();
                for (VectorSchemaRoot source : sources) {
                    source.close();
                }
            }
        }
    }
}
