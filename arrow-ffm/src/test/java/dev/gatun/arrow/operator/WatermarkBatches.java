package dev.gatun.arrow.operator;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.Schema;
import dev.gatun.arrow.types.TimeUnit;
import dev.gatun.arrow.vector.Int32Vector;
import dev.gatun.arrow.vector.Int64Vector;
import dev.gatun.arrow.vector.Int8Vector;
import dev.gatun.arrow.vector.ValueVector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Batches and plans of the watermark tests: columns {@code a} (INT), {@code ts} (the rowtime,
 * TIMESTAMP(3)), {@code wm} (the watermark values, TIMESTAMP(3)), optionally the row-kind column;
 * the plan {@code SELECT a WHERE a > threshold} assigning {@code wm} as the watermark of {@code ts}.
 */
final class WatermarkBatches {
    static final ArrowType MILLIS = new ArrowType.Timestamp(TimeUnit.MILLISECOND, null);
    static final Schema OUTPUT = Schema.of(Field.nullable("a", ArrowType.INT32));

    private WatermarkBatches() {}

    static Schema input(boolean rowKinds) {
        List<Field> fields = new ArrayList<>(List.of(Field.nullable("a", ArrowType.INT32),
                Field.nullable("ts", MILLIS), Field.nullable("wm", MILLIS)));
        if (rowKinds) {
            fields.add(Field.notNull(NativeOperator.ROW_KIND_COLUMN, ArrowType.INT8));
        }
        return new Schema(fields, Map.of());
    }

    /** The plan; without a threshold it has no filter. */
    static byte[] plan(Schema input, Integer threshold) {
        PlanBuilder plan = new PlanBuilder(input).project("a", PlanBuilder.field(0))
                .watermarks(PlanBuilder.field(1), PlanBuilder.field(2));
        if (threshold != null) {
            plan.filter(plan.call("gt", ArrowType.BOOL, PlanBuilder.field(0),
                    PlanBuilder.literal(ArrowType.INT32, threshold)));
        }
        return plan.build();
    }

    /** A sealed batch; a NULL rowtime or watermark is a {@code null} element. */
    static RecordBatch batch(Schema schema, int[] a, Long[] ts, Long[] wm, byte[] kinds) {
        int n = a.length;
        RecordBatch batch = RecordBatch.allocate(schema, Math.max(1, n));
        Int32Vector as = batch.column(0, Int32Vector.class);
        for (int r = 0; r < n; r++) {
            as.setInt(r, a[r]);
            set(batch.column(1, Int64Vector.class), r, ts[r]);
            set(batch.column(2, Int64Vector.class), r, wm[r]);
            if (kinds != null) {
                batch.column(3, Int8Vector.class).setByte(r, kinds[r]);
            }
        }
        batch.seal(n);
        return batch;
    }

    private static void set(Int64Vector v, int r, Long value) {
        if (value == null) {
            v.setNull(r);
        } else {
            v.setLong(r, value);
        }
    }

    /** The last column of a result batch: the watermark before each row, {@code null} for none. */
    static List<Long> watermarkColumn(RecordBatch out) {
        int last = out.columnCount() - 1;
        if (!out.schema().field(last).name().equals(NativeOperator.WATERMARK_COLUMN)) {
            throw new AssertionError("no watermark column: " + out.schema());
        }
        ValueVector column = out.column(last);
        Int64Vector values = (Int64Vector) column;
        List<Long> marks = new ArrayList<>();
        for (int r = 0; r < out.rowCount(); r++) {
            marks.add(column.isNull(r) ? null : values.getLong(r));
        }
        return marks;
    }
}
