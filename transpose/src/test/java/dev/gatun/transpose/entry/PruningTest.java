package dev.gatun.transpose.entry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.transpose.TransposeException;
import dev.gatun.transpose.exit.ColumnarRowView;
import dev.gatun.transpose.testing.Transposes;
import dev.gatun.transpose.testing.Tripwire;
import dev.gatun.transpose.types.TypeMapping;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Projection pruning: only the read paths' fields are read (top-level and nested ROW fields),
 * nested reads become dotted top-level columns, a NULL parent gives NULL, and zero read paths
 * still count rows.
 */
@ExtendWith(LeakCheckExtension.class)
class PruningTest {
    /** a, b ROW(x INT NOT NULL, y, z ROW(p, q NOT NULL)), c, d ARRAY, e ROW(m) NOT NULL. */
    private static final RowType INPUT = (RowType) DataTypes.ROW(
            DataTypes.FIELD("a", DataTypes.BIGINT()),
            DataTypes.FIELD("b", DataTypes.ROW(
                    DataTypes.FIELD("x", DataTypes.INT().notNull()),
                    DataTypes.FIELD("y", DataTypes.STRING()),
                    DataTypes.FIELD("z", DataTypes.ROW(
                            DataTypes.FIELD("p", DataTypes.DOUBLE()),
                            DataTypes.FIELD("q", DataTypes.STRING().notNull()))))),
            DataTypes.FIELD("c", DataTypes.STRING()),
            DataTypes.FIELD("d", DataTypes.ARRAY(DataTypes.STRING())),
            DataTypes.FIELD("e", DataTypes.ROW(DataTypes.FIELD("m", DataTypes.INT())).notNull())).getLogicalType();
    private static final List<int[]> PATHS = List.of(new int[] {2}, new int[] {1, 0}, new int[] {1, 2, 1}, new int[] {4});
    /** What the batch holds: the read paths' types, nested ones nullable through their parent. */
    private static final RowType OUTPUT = (RowType) DataTypes.ROW(
            DataTypes.FIELD("c", DataTypes.STRING()),
            DataTypes.FIELD("b.x", DataTypes.INT()),
            DataTypes.FIELD("b.z.q", DataTypes.STRING()),
            DataTypes.FIELD("e", DataTypes.ROW(DataTypes.FIELD("m", DataTypes.INT())).notNull())).getLogicalType();
    private static final Tripwire.Spec READABLE = new Tripwire.Spec(Set.of(1, 2, 4),
            Map.of(1, new Tripwire.Spec(Set.of(0, 2), Map.of(2, Tripwire.Spec.of(Set.of(1))))));

    private final TypeMapping types = TypeMapping.defaults();

    private static GenericRowData row(Object a, GenericRowData b, String c, String... d) {
        Object[] elements = new Object[d.length];
        for (int i = 0; i < d.length; i++) {
            elements[i] = StringData.fromString(d[i]);
        }
        return GenericRowData.of(a, b, c == null ? null : StringData.fromString(c), new GenericArrayData(elements),
                GenericRowData.of(c == null ? null : c.length()));
    }

    private static GenericRowData b(int x, String y, GenericRowData z) {
        return GenericRowData.of(x, StringData.fromString(y), z);
    }

    private static GenericRowData z(double p, String q) {
        return GenericRowData.of(p, StringData.fromString(q));
    }

    private static List<GenericRowData> inputs() {
        return List.of(
                row(1L, b(7, "unread", z(1.5, "deep")), "hello", "u1", "u2"),
                row(2L, null, "parent NULL"),
                row(3L, b(8, "unread", null), "grandparent NULL"),
                row(null, b(9, null, z(2.5, "")), null, "x"));
    }

    private static List<GenericRowData> expected() {
        return List.of(
                GenericRowData.of(StringData.fromString("hello"), 7, StringData.fromString("deep"), GenericRowData.of(5)),
                GenericRowData.of(StringData.fromString("parent NULL"), null, null, GenericRowData.of(11)),
                GenericRowData.of(StringData.fromString("grandparent NULL"), 8, null, GenericRowData.of(16)),
                GenericRowData.of(null, 9, StringData.fromString(""), GenericRowData.of((Object) null)));
    }

    @Test
    void nestedReadsAreDottedColumnsNullableThroughTheirParent() {
        try (NativeAllocator allocator = Transposes.allocator("pruning");
             BatchWriter writer = new BatchWriter(INPUT, PATHS, types, 8, true, allocator)) {
            List<Field> fields = writer.schema().fields();
            assertEquals(List.of("c", "b.x", "b.z.q", "e"), fields.stream().map(Field::name).toList());
            assertEquals(ArrowType.INT32, fields.get(1).type());
            assertTrue(fields.get(1).nullable(), "b.x is NOT NULL but b is nullable");
            assertEquals(ArrowType.UTF8, fields.get(2).type());
            assertTrue(fields.get(2).nullable());
            assertEquals(ArrowType.STRUCT, fields.get(3).type());
            assertFalse(fields.get(3).nullable());
        }
    }

    @Test
    void unreadGettersAreNeverCalled() {
        List<RowData> tripwires = inputs().stream().map(r -> (RowData) new Tripwire(r, READABLE)).toList();
        assertPruned(tripwires);
    }

    @Test
    void theTripwireItselfWorks() {
        RowData wired = new Tripwire(inputs().get(0), READABLE);
        assertThrows(IllegalStateException.class, () -> wired.isNullAt(0));
        assertThrows(IllegalStateException.class, () -> wired.getRow(1, 3).getString(1));
        assertThrows(IllegalStateException.class, () -> wired.getRow(1, 3).getRow(2, 2).isNullAt(0));
    }

    /** Binary rows whose unread variable-length words point far outside the row: reading them would throw. */
    @Test
    void unreadBinaryFieldsAreNeverRead() {
        RowDataSerializer serializer = new RowDataSerializer(INPUT);
        List<RowData> corrupted = inputs().stream().map(r -> {
            BinaryRowData binary = serializer.toBinaryRow(r).copy();
            corruptWordAt(binary, slotAt(binary, 3)); // d ARRAY
            if (!binary.isNullAt(1)) {
                int b = binary.getOffset() + (int) (binary.getSegments()[0].getLong(slotAt(binary, 1)) >>> 32);
                corruptWordAt(binary, b + BinaryRowData.calculateBitSetWidthInBytes(3) + 8); // b.y
            }
            return (RowData) binary;
        }).toList();
        assertPruned(corrupted);
        try (NativeAllocator allocator = Transposes.allocator("corrupted");
             BatchWriter readsD = new BatchWriter(INPUT, List.of(new int[] {3}), types, 8, true, allocator);
             BatchWriter readsY = new BatchWriter(INPUT, List.of(new int[] {1, 1}), types, 8, true, allocator)) {
            assertThrows(TransposeException.class, () -> readsD.write(corrupted.get(0)), "the corruption is real");
            assertThrows(TransposeException.class, () -> readsY.write(corrupted.get(0)), "the corruption is real");
        }
    }

    private static int slotAt(BinaryRowData row, int pos) {
        return row.getOffset() + BinaryRowData.calculateBitSetWidthInBytes(row.getArity()) + 8 * pos;
    }

    private static void corruptWordAt(BinaryRowData row, int at) {
        row.getSegments()[0].putLong(at, (0x7FFF_0000L << 32) | 4096);
    }

    private void assertPruned(List<RowData> rows) {
        try (NativeAllocator allocator = Transposes.allocator("pruning");
             BatchWriter writer = new BatchWriter(INPUT, PATHS, types, 8, true, allocator)) {
            List<RecordBatch> batches = Transposes.writeAll(writer, rows);
            Transposes.assertBatches(OUTPUT, types, batches, expected(), b -> b, "pruned");
        }
    }

    @Test
    void zeroReadPathsStillCountRows() {
        try (NativeAllocator allocator = Transposes.allocator("zero");
             BatchWriter insertOnly = new BatchWriter(INPUT, List.of(), types, 3, true, allocator);
             BatchWriter changelog = new BatchWriter(INPUT, List.of(), types, 3, false, allocator)) {
            Tripwire.Spec nothing = Tripwire.Spec.of(Set.of());
            for (int i = 0; i < 2; i++) {
                insertOnly.write(new Tripwire(inputs().get(i), nothing));
                GenericRowData kinded = inputs().get(i);
                kinded.setRowKind(i == 0 ? RowKind.UPDATE_BEFORE : RowKind.DELETE);
                changelog.write(new Tripwire(kinded, nothing));
            }
            try (RecordBatch a = insertOnly.finish(); RecordBatch b = changelog.finish()) {
                assertEquals(0, a.columnCount());
                assertEquals(2, a.rowCount());
                assertEquals(1, b.columnCount());
                assertEquals(2, b.rowCount());
                ColumnarRowView view = ColumnarRowView.over(b, RowType.of(), types);
                assertEquals(RowKind.UPDATE_BEFORE, view.getRowKind());
                view.setRow(1);
                assertEquals(RowKind.DELETE, view.getRowKind());
            }
        }
    }

    @Test
    void invalidReadPathsAreRejected() {
        try (NativeAllocator allocator = Transposes.allocator("paths")) {
            for (int[] bad : List.of(new int[0], new int[] {5}, new int[] {-1}, new int[] {0, 0}, new int[] {1, 3},
                    new int[] {3, 0})) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> new BatchWriter(INPUT, List.of(bad), types, 4, true, allocator));
                assertTrue(e.getMessage().contains("read path 0"), e.getMessage());
            }
        }
    }

    @Test
    void aFieldReadTwiceGivesTwoColumns() {
        List<int[]> paths = List.of(new int[] {1, 0}, new int[] {1}, new int[] {1, 0});
        RowType output = new RowType(List.of(new RowType.RowField("b.x", new IntType()),
                new RowType.RowField("b", INPUT.getTypeAt(1)), new RowType.RowField("b.x2", new IntType())));
        try (NativeAllocator allocator = Transposes.allocator("twice");
             BatchWriter writer = new BatchWriter(INPUT, paths, types, 8, true, allocator)) {
            List<GenericRowData> in = inputs();
            List<RecordBatch> batches = Transposes.writeAll(writer, in);
            List<GenericRowData> expected = in.stream().map(r -> {
                RowData b = r.getRow(1, 3);
                Object x = b == null ? null : b.getInt(0);
                return GenericRowData.of(x, b, x);
            }).toList();
            Transposes.assertBatches(output, types, batches, expected, r -> r, "read twice");
        }
    }
}
