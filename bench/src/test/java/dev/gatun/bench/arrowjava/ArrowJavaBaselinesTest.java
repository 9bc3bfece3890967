package dev.gatun.bench.arrowjava;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gatun.bench.jmh.CrossingBench;
import dev.gatun.bench.rows.RowBatch;
import dev.gatun.bench.rows.RowFormat;
import dev.gatun.bench.rows.RowShape;
import dev.gatun.bench.rows.Shapes;
import java.time.LocalDateTime;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.Text;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/** The Arrow Java baselines write what the rows hold (so the benchmarks compare correct writers). */
class ArrowJavaBaselinesTest {
    @Test
    void bothWritersProduceTheRowValuesForEveryShapeAndFormat() {
        try (BufferAllocator allocator = new RootAllocator()) {
            for (RowShape shape : Shapes.all()) {
                for (RowFormat format : RowFormat.values()) {
                    RowBatch batch = RowBatch.of(shape, format, 300, 3);
                    for (ArrowJavaWriter.Mode mode : ArrowJavaWriter.Mode.values()) {
                        ArrowJavaWriter writer = new ArrowJavaWriter(allocator, mode, shape.rowType(), shape.selected());
                        for (int pass = 0; pass < 2; pass++) { // the second pass uses the size hints
                            try (VectorSchemaRoot root = writer.write(batch.rows())) {
                                assertMatches(batch, shape.selected(), root, shape.name() + "/" + format + "/" + mode);
                            }
                        }
                    }
                }
            }
        }
    }

    @Test
    void theArrowJavaCrossingThroughRustGivesBackTheSameBatch() {
        try (BufferAllocator allocator = new RootAllocator()) {
            for (RowShape shape : new RowShape[] {CrossingBench.SHAPE, Shapes.MIXED20}) {
                RowBatch batch = RowBatch.of(shape, RowFormat.BINARY, 500, 2);
                try (VectorSchemaRoot source = new ArrowJavaWriter(allocator, ArrowJavaWriter.Mode.PRESIZED,
                        shape.rowType(), shape.selected()).write(batch.rows());
                     ArrowJavaCrossing crossing = new ArrowJavaCrossing(allocator, source.getSchema())) {
                    for (int i = 0; i < 3; i++) {
                        VectorSchemaRoot back = crossing.roundtrip(source);
                        assertEquals(source.contentToTSVString(), back.contentToTSVString());
                        back.clear();
                        back = crossing.passthrough(source);
                        assertEquals(source.contentToTSVString(), back.contentToTSVString());
                        back.clear();
                    }
                }
            }
            assertEquals(0, allocator.getAllocatedMemory(), "everything released");
        }
    }

    private static void assertMatches(RowBatch batch, int[] selected, VectorSchemaRoot root, String what) {
        RowType type = batch.shape().rowType();
        assertEquals(batch.rows().length, root.getRowCount(), what);
        for (int c = 0; c < selected.length; c++) {
            FieldVector vector = root.getVector(c);
            RowData.FieldGetter getter = RowData.createFieldGetter(type.getTypeAt(selected[c]), selected[c]);
            for (int r = 0; r < root.getRowCount(); r++) {
                Object expected = arrowValue(getter.getFieldOrNull(batch.rows()[r]));
                Object actual = vector.getObject(r);
                assertEquals(expected, actual, what + " column " + type.getFieldNames().get(selected[c]) + " row " + r);
            }
        }
    }

    /** A Flink internal value as Arrow Java's {@code getObject} returns it. */
    private static Object arrowValue(Object flink) {
        if (flink instanceof StringData s) {
            return new Text(s.toString());
        }
        if (flink instanceof DecimalData d) {
            return d.toBigDecimal();
        }
        if (flink instanceof TimestampData t) {
            return LocalDateTime.ofEpochSecond(Math.floorDiv(t.getMillisecond(), 1000),
                    (int) Math.floorMod(t.getMillisecond(), 1000) * 1_000_000, java.time.ZoneOffset.UTC);
        }
        if (flink instanceof Integer || flink instanceof Long || flink instanceof Short || flink instanceof Byte
                || flink instanceof Float || flink instanceof Double || flink instanceof Boolean || flink == null) {
            return flink;
        }
        throw new AssertionError("unexpected value " + flink.getClass());
    }
}
