package dev.gatun.bench.jmh;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.bench.arrowjava.ArrowJavaWriter;
import dev.gatun.bench.rows.RowBatch;
import dev.gatun.transpose.entry.BatchWriter;
import dev.gatun.transpose.types.TypeMapping;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.RowData;

/**
 * The entry-transpose comparison of {@link EntryTransposeBench} timed in thread CPU time instead
 * of wall time, for a machine shared with other work: time the thread spends descheduled does
 * not count (cache and memory-bandwidth contention still do). Each round runs every
 * implementation on one batch, in turn, so all of them see the same load; the report is the
 * median µs per 4096-row batch over the rounds.
 *
 * <p>{@code java ... dev.gatun.bench.jmh.CpuTimeProbe [ROUNDS] SPEC...} with specs as in
 * {@link RowBatch#of(String)}, e.g. {@code 2000 bid/binary bid/stream bid/packed}.
 */
public final class CpuTimeProbe {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private CpuTimeProbe() {}

    public static void main(String[] args) {
        int rounds = Integer.parseInt(args[0]);
        for (String spec : Arrays.copyOfRange(args, 1, args.length)) {
            probe(spec, rounds);
        }
    }

    private static void probe(String spec, int rounds) {
        RowBatch batch = RowBatch.of(spec);
        RowData[] rows = batch.rows();
        int[] selected = batch.shape().selected();
        List<int[]> paths = new ArrayList<>();
        for (int field : selected) {
            paths.add(new int[] {field});
        }
        try (NativeAllocator allocator = NativeAllocator.create("cpu-time-probe", Long.MAX_VALUE);
             BatchWriter writer = new BatchWriter(batch.shape().rowType(), paths, TypeMapping.defaults(), RowBatch.ROWS,
                     true, allocator);
             RootAllocator arrowJava = new RootAllocator();
             PhysicalFloor floor = new PhysicalFloor(batch.shape().rowType(), selected, rows)) {
            ArrowJavaWriter growing = new ArrowJavaWriter(arrowJava, ArrowJavaWriter.Mode.GROWING,
                    batch.shape().rowType(), selected);
            ArrowJavaWriter presized = new ArrowJavaWriter(arrowJava, ArrowJavaWriter.Mode.PRESIZED,
                    batch.shape().rowType(), selected);
            Map<String, LongSupplier> runs = new LinkedHashMap<>();
            runs.put("gatun", () -> {
                for (RowData row : rows) {
                    writer.write(row);
                }
                try (RecordBatch b = writer.finish()) {
                    return b.rowCount();
                }
            });
            runs.put("floorRead", () -> floor.read(rows));
            runs.put("floorCopy", () -> {
                floor.copy();
                return 0;
            });
            runs.put("arrowJavaPresized", () -> {
                try (VectorSchemaRoot root = presized.write(rows)) {
                    return root.getRowCount();
                }
            });
            runs.put("arrowJavaGrowing", () -> {
                try (VectorSchemaRoot root = growing.write(rows)) {
                    return root.getRowCount();
                }
            });
            Map<String, long[]> nanos = new LinkedHashMap<>();
            runs.keySet().forEach(k -> nanos.put(k, new long[rounds]));
            long sink = 0;
            for (int warm = 0; warm < rounds / 2; warm++) {
                for (LongSupplier run : runs.values()) {
                    sink += run.getAsLong();
                }
            }
            for (int r = 0; r < rounds; r++) {
                for (Map.Entry<String, LongSupplier> e : runs.entrySet()) {
                    long start = THREADS.getCurrentThreadCpuTime();
                    sink += e.getValue().getAsLong();
                    nanos.get(e.getKey())[r] = THREADS.getCurrentThreadCpuTime() - start;
                }
            }
            Map<String, Double> median = new LinkedHashMap<>();
            nanos.forEach((k, v) -> {
                Arrays.sort(v);
                median.put(k, v[v.length / 2] / 1000.0);
            });
            double floorUs = median.get("floorRead") + median.get("floorCopy");
            System.out.printf(Locale.ROOT, "%-15s cpu µs/batch (median of %d): %s | floor %.0f | gatun/floor %.2f"
                            + " | growing/gatun %.2f (sink %d)%n", spec, rounds, format(median), floorUs,
                    median.get("gatun") / floorUs, median.get("arrowJavaGrowing") / median.get("gatun"), sink & 1);
        }
    }

    private static String format(Map<String, Double> median) {
        StringBuilder out = new StringBuilder();
        median.forEach((k, v) -> out.append(k).append(' ').append(String.format(Locale.ROOT, "%.0f", v)).append("  "));
        return out.toString().strip();
    }
}
