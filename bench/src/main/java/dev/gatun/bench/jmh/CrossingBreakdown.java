package dev.gatun.bench.jmh;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.cdata.CDataExporter;
import dev.gatun.arrow.cdata.CDataImporter;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.types.Schema;
import dev.gatun.bench.rows.RowBatch;
import dev.gatun.bench.rows.RowFormat;
import dev.gatun.bench.rows.Shapes;
import dev.gatun.ffm.GatunNative;
import dev.gatun.ffm.ReleaseUpcall;
import dev.gatun.ffm.internal.ArrowArray;
import dev.gatun.ffm.internal.ArrowSchema;
import dev.gatun.transpose.entry.BatchWriter;
import dev.gatun.transpose.types.TypeMapping;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.RowData;

/**
 * Where the time of {@link CrossingBench#gatun} goes: the four steps of {@code ArrowCall.exchange}
 * timed apart, each over a pool of batches (export all, then call all, import all, close all), in
 * wall time and in the thread's CPU time (which a loaded machine does not inflate). Not JMH: the
 * steps cannot be separated inside one benchmark invocation.
 *
 * <p>{@code java ... dev.gatun.bench.jmh.CrossingBreakdown [rounds] [mixed10|fixed10|empty]}:
 * each round writes 32 batches (untimed) and crosses them; the second half of the rounds counts.
 */
public final class CrossingBreakdown {
    private static final int POOL = 32;
    private static final String[] STEPS = {"export", "gatun_passthrough", "import", "close (release)"};

    private CrossingBreakdown() {}

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        String columns = args.length > 1 ? args[1] : "mixed10";
        boolean empty = columns.equals("empty");
        int[] selected = columns.equals("fixed10") ? CrossingBench.FIXED10 : CrossingBench.MIXED10;
        RowData[] rows = RowBatch.of(Shapes.MIXED20, RowFormat.BINARY, RowBatch.ROWS, RowBatch.SEED).rows();
        List<int[]> paths = new ArrayList<>();
        for (int field : selected) {
            paths.add(new int[] {field});
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (NativeAllocator allocator = NativeAllocator.create("crossing-breakdown", Long.MAX_VALUE);
             BatchWriter writer = new BatchWriter(Shapes.MIXED20.rowType(), paths, TypeMapping.defaults(),
                     RowBatch.ROWS, true, allocator);
             Arena arena = Arena.ofConfined()) {
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
                    w[0] = System.nanoTime();
                    c[0] = threads.getCurrentThreadCpuTime();
                    for (int i = 0; i < POOL; i++) {
                        CDataExporter.exportBatch(pool[i], in[i]);
                    }
                    w[1] = System.nanoTime();
                    c[1] = threads.getCurrentThreadCpuTime();
                    for (int i = 0; i < POOL; i++) {
                        GatunNative.passthrough(handle, in[i], out[i]);
                    }
                    w[2] = System.nanoTime();
                    c[2] = threads.getCurrentThreadCpuTime();
                    for (int i = 0; i < POOL; i++) {
                        back[i] = CDataImporter.importBatch(allocator, out[i], schema);
                    }
                    w[3] = System.nanoTime();
                    c[3] = threads.getCurrentThreadCpuTime();
                    for (int i = 0; i < POOL; i++) {
                        back[i].close();
                    }
                    w[4] = System.nanoTime();
                    c[4] = threads.getCurrentThreadCpuTime();
                    if (r >= rounds / 2) {
                        for (int s = 0; s < STEPS.length; s++) {
                            wall[s] += w[s + 1] - w[s];
                            cpu[s] += c[s + 1] - c[s];
                        }
                        counted += POOL;
                    }
                }
                System.out.printf("%s, %d batches counted, us per batch (wall / thread CPU):%n", columns, counted);
                for (int s = 0; s < STEPS.length; s++) {
                    System.out.printf("  %-18s %7.2f / %7.2f%n", STEPS[s], wall[s] / 1e3 / counted, cpu[s] / 1e3 / counted);
                }
            } finally {
                GatunNative.passthroughFree(handle);
            }
        }
    }
}
