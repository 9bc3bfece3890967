package dev.gatun.transpose.testing;

import static dev.gatun.transpose.testing.RowAssertions.assertRowEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.transpose.entry.BatchWriter;
import dev.gatun.transpose.exit.ColumnarRowView;
import dev.gatun.transpose.types.TypeMapping;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/** Drives the entry transpose over rows and checks batches through the exit view. */
public final class Transposes {
    private Transposes() {}

    /** One read path per top-level field: {@code [0], [1], ...}. */
    public static List<int[]> allFields(RowType type) {
        List<int[]> paths = new ArrayList<>();
        for (int i = 0; i < type.getFieldCount(); i++) {
            paths.add(new int[] {i});
        }
        return paths;
    }

    /** Writes {@code rows} and returns every batch, sealed (the last one partial if needed). */
    public static List<RecordBatch> writeAll(BatchWriter writer, List<? extends RowData> rows) {
        List<RecordBatch> batches = new ArrayList<>();
        try {
            for (RowData row : rows) {
                writer.write(row);
                if (writer.isFull()) {
                    batches.add(writer.finish());
                }
            }
            if (writer.rowCount() > 0) {
                batches.add(writer.finish());
            }
            return batches;
        } catch (RuntimeException | Error e) {
            batches.forEach(RecordBatch::close);
            throw e;
        }
    }

    /**
     * Reads every batch through a {@link ColumnarRowView} (after {@code exchange}, e.g. a native
     * round trip) and asserts the rows equal {@code expected}, in order; closes every batch.
     */
    public static void assertBatches(RowType type, TypeMapping types, List<RecordBatch> batches,
                                     List<? extends RowData> expected, UnaryOperator<RecordBatch> exchange,
                                     String context) {
        ColumnarRowView view = new ColumnarRowView(type, types);
        int k = 0;
        try {
            for (int b = 0; b < batches.size(); b++) {
                RecordBatch read = exchange.apply(batches.get(b));
                batches.set(b, read);
                view.bind(read);
                for (int i = 0; i < view.rowCount(); i++) {
                    view.setRow(i);
                    assertRowEquals(type, expected.get(k), view, context + ", batch " + b + " row " + i
                            + " (input row " + k + ")");
                    k++;
                }
            }
            assertEquals(expected.size(), k, context + ": rows read back");
        } finally {
            batches.forEach(RecordBatch::close);
        }
    }

    public static NativeAllocator allocator(String name) {
        return NativeAllocator.create(name, Long.MAX_VALUE);
    }
}
