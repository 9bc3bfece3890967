package dev.gatun.planner.runtime;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.operator.WatermarkProgress;
import dev.gatun.transpose.exit.BinaryRowExit;
import dev.gatun.transpose.exit.ColumnarRowView;
import dev.gatun.transpose.types.TypeMapping;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * The exit of an island: the rows of a result batch, and the watermarks between them when the
 * island assigns watermarks. Flink rows (Rust wrote each row in Flink's binary format) are copied
 * to the heap at {@link #bind}, so the batch is released before the first row is emitted; the
 * columnar view (nested output types) reads the batch in place, so the batch lives until the
 * last row is emitted.
 */
abstract class IslandExit {
    /** Where the rows and watermarks of a batch go, in order. */
    interface Emitter {
        void row(RowData row);

        void watermark(long timestamp);
    }

    static IslandExit of(NativeCalcSpec spec, TypeMapping types) {
        return spec.flinkRowsExit() ? new Rows(spec.emittedType()) : new View(spec.emittedType(), types);
    }

    /** Emits every row of {@code result} (closing it), each preceded by its watermark, if any. */
    abstract int emit(RecordBatch result, Emitter emitter);

    private static final class Rows extends IslandExit {
        private final BinaryRowExit exit;

        Rows(RowType type) {
            this.exit = new BinaryRowExit(type.getFieldCount());
        }

        @Override
        int emit(RecordBatch result, Emitter emitter) {
            try (RecordBatch batch = result) {
                exit.bind(batch);
            }
            int rows = exit.rowCount();
            for (int i = 0; i < rows; i++) {
                long watermark = exit.watermarkBefore(i);
                if (watermark != WatermarkProgress.NONE) {
                    emitter.watermark(watermark);
                }
                emitter.row(exit.reusedRow(i));
            }
            return rows;
        }
    }

    private static final class View extends IslandExit {
        private final ColumnarRowView view;

        View(RowType type, TypeMapping types) {
            this.view = new ColumnarRowView(type, types);
        }

        @Override
        int emit(RecordBatch result, Emitter emitter) {
            try (RecordBatch batch = result) {
                view.bind(batch);
                int rows = view.rowCount();
                for (int i = 0; i < rows; i++) {
                    long watermark = view.watermarkBefore(i);
                    if (watermark != WatermarkProgress.NONE) {
                        emitter.watermark(watermark);
                    }
                    view.setRow(i);
                    emitter.row(view);
                }
                return rows;
            }
        }
    }
}
