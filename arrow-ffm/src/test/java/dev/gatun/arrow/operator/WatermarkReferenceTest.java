package dev.gatun.arrow.operator;

import static dev.gatun.arrow.operator.NativeOperator.Kind.CALC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.arrow.types.Schema;
import dev.gatun.arrow.vector.Int32Vector;
import dev.gatun.arrow.vector.Int8Vector;
import dev.gatun.arrow.vector.VarBinaryVector;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The watermark column of the native Calc against a straightforward Java re-implementation of
 * Flink's {@code WatermarkAssignerOperator.processElement} followed by a filter: random batches
 * with random filter selectivity, watermark values with NULLs and falling stretches, random emit
 * intervals, progress carried from batch to batch, both output formats, with and without row kinds.
 */
@ExtendWith(LeakCheckExtension.class)
class WatermarkReferenceTest {
    /** What Flink emits downstream, in order: a row (its input index) or a watermark. */
    private sealed interface Event {}

    private record Row(int input) implements Event {}

    private record Mark(long watermark) implements Event {}

    /** Flink's per-row logic, kept as plain as its source: currentWatermark, lastWatermark, interval. */
    private static final class FlinkAssigner {
        long currentWatermark;
        long lastWatermark;
        final long watermarkInterval;

        FlinkAssigner(long interval) {
            this.watermarkInterval = interval;
        }

        void processElement(int row, Long watermark, boolean filterKeeps, List<Event> out) {
            if (watermark != null) {
                currentWatermark = Math.max(currentWatermark, watermark);
            }
            if (filterKeeps) { // the Calc after the assigner forwards the row or drops it
                out.add(new Row(row));
            }
            if (currentWatermark - lastWatermark > watermarkInterval) {
                advanceWatermark(out);
            }
        }

        private void advanceWatermark(List<Event> out) {
            if (currentWatermark > lastWatermark) {
                lastWatermark = currentWatermark;
                out.add(new Mark(currentWatermark));
            }
        }
    }

    @Test
    void randomBatchesMatchFlinksPerRowLogic() {
        Random random = new Random(20_240_611);
        int streams = 0, batches = 0, marks = 0, collapsed = 0, afterLast = 0;
        for (OutputFormat format : OutputFormat.values()) {
            for (boolean rowKinds : new boolean[] {false, true}) {
                Schema input = WatermarkBatches.input(rowKinds);
                for (int s = 0; s < 12; s++, streams++) {
                    int threshold = random.nextInt(120) - 10; // a in [0, 100): keeps from everything to nothing
                    long interval = new long[] {0, 1, 7, 200, 1_000_000}[random.nextInt(5)];
                    try (NativeOperator op = NativeOperator.create(CALC, WatermarkBatches.plan(input, threshold),
                            input, WatermarkBatches.OUTPUT, format, NativeAllocator.root())) {
                        FlinkAssigner flink = new FlinkAssigner(interval);
                        WatermarkProgress progress = new WatermarkProgress(interval);
                        long base = random.nextInt(2_000) - 500;
                        for (int b = 0; b < 10; b++, batches++) {
                            int n = random.nextInt(50);
                            int[] a = new int[n];
                            Long[] ts = new Long[n];
                            Long[] wm = new Long[n];
                            byte[] kinds = rowKinds ? new byte[n] : null;
                            List<Event> expected = new ArrayList<>();
                            for (int r = 0; r < n; r++) {
                                a[r] = random.nextInt(100);
                                ts[r] = (long) r;
                                base += random.nextInt(40) - 12; // mostly rising, with falling stretches
                                wm[r] = random.nextInt(5) == 0 ? null : base;
                                if (kinds != null) {
                                    kinds[r] = (byte) random.nextInt(4);
                                }
                                flink.processElement(r, wm[r], a[r] > threshold, expected);
                            }
                            RecordBatch batch = WatermarkBatches.batch(input, a, ts, wm, kinds);
                            try (RecordBatch out = op.process(batch, progress)) {
                                List<Integer> rows = new ArrayList<>();
                                List<Long> column = new ArrayList<>();
                                Long pending = null;
                                for (Event e : expected) {
                                    switch (e) {
                                        case Row row -> {
                                            rows.add(row.input());
                                            column.add(pending);
                                            pending = null;
                                        }
                                        case Mark mark -> {
                                            collapsed += pending == null ? 0 : 1;
                                            pending = mark.watermark();
                                            marks++;
                                        }
                                    }
                                }
                                String where = format + (rowKinds ? " with row kinds" : "") + ", stream " + s
                                        + ", batch " + b;
                                assertEquals(column, WatermarkBatches.watermarkColumn(out), where);
                                checkRows(out, format, rows, a, kinds, where);
                                long after = pending == null ? WatermarkProgress.NONE : pending;
                                afterLast += pending == null ? 0 : 1;
                                assertEquals(List.of(flink.currentWatermark, flink.lastWatermark, after),
                                        List.of(progress.current(), progress.last(), progress.after()), where);
                            }
                        }
                    }
                }
            }
        }
        assertTrue(marks > 1_000 && collapsed > 100 && afterLast > 50,
                streams + " streams, " + batches + " batches: " + marks + " watermarks, " + collapsed
                        + " collapsed, " + afterLast + " after the last row");
    }

    /** The output rows are the rows the filter keeps, in order (values and row kinds). */
    private static void checkRows(RecordBatch out, OutputFormat format, List<Integer> rows, int[] a, byte[] kinds,
                                  String where) {
        assertEquals(rows.size(), out.rowCount(), where);
        for (int i = 0; i < rows.size(); i++) {
            int r = rows.get(i);
            byte kind = kinds == null ? 0 : kinds[r];
            if (format == OutputFormat.ARROW) {
                assertEquals(a[r], out.column(0, Int32Vector.class).getInt(i), where);
                if (kinds != null) {
                    assertEquals(kind, out.column(1, Int8Vector.class).getByte(i), where);
                }
            } else {
                byte[] row = out.column(0, VarBinaryVector.class).getBytes(i);
                assertEquals(kind, row[0], where); // header byte: the row kind
                int value = (row[8] & 0xff) | (row[9] & 0xff) << 8 | (row[10] & 0xff) << 16 | (row[11] & 0xff) << 24;
                assertEquals(a[r], value, where); // field 0 at offset 8 (one header word), little-endian
            }
        }
    }
}
