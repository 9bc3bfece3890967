package dev.gatun.transpose.exit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.operator.NativeOperator;
import dev.gatun.arrow.operator.OutputFormat;
import dev.gatun.arrow.operator.TestPlans;
import dev.gatun.arrow.operator.WatermarkProgress;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.arrow.types.Schema;
import dev.gatun.ffm.NativeException;
import dev.gatun.transpose.entry.BatchWriter;
import dev.gatun.transpose.testing.RandomTypes;
import dev.gatun.transpose.testing.RandomValues;
import dev.gatun.transpose.testing.RowAssertions;
import dev.gatun.transpose.testing.Transposes;
import dev.gatun.transpose.types.TypeMapping;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.function.Consumer;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Rows written natively in Flink's binary format are the bytes Flink's own writer produces: random
 * rows of every flat type go through the entry transpose, an identity Calc in the Flink-rows format
 * and {@link BinaryRowExit}, and each emitted row must equal, byte for byte,
 * {@code new RowDataSerializer(type).toBinaryRow(row)} (a fresh serializer per row), read back the
 * same values, and stay valid after its batch is closed and later batches are bound.
 */
@ExtendWith(LeakCheckExtension.class)
class BinaryRowExitTest {
    private static final int SEEDS = 40;

    static Stream<Long> seeds() {
        return LongStream.rangeClosed(1, SEEDS).boxed();
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void nativeRowsAreTheBytesFlinkWrites(long seed) {
        Random random = new Random(seed);
        boolean nanos = seed % 3 != 0;
        RandomTypes randomTypes = new RandomTypes(random, nanos);
        // Some rows wider than 56 fields: two words of null bits.
        int arity = 1 + random.nextInt(seed % 5 == 0 ? 80 : 12);
        List<RowType.RowField> fields = new ArrayList<>();
        for (int i = 0; i < arity; i++) {
            fields.add(new RowType.RowField("f" + i, randomTypes.leaf()));
        }
        RowType type = new RowType(false, fields);
        assertTrue(BinaryRowExit.supports(type), type::asSummaryString);
        boolean changelog = seed % 2 == 0;
        RandomValues values = new RandomValues(random, 5 + random.nextInt(30));
        List<GenericRowData> rows = new ArrayList<>();
        for (int i = random.nextInt(150); i > 0; i--) {
            GenericRowData row = values.row(type);
            if (changelog) {
                row.setRowKind(values.kind());
            }
            rows.add(row);
        }
        String context = "seed " + seed + " " + type.asSummaryString();
        assertNativeRowsEqualFlinks(type, new TypeMapping(nanos), rows, 1 + random.nextInt(64), changelog, context);
    }

    /** The NULL type (no Flink serializer for it): NULL bit and a zero slot, as BinaryRowWriter.setNullAt. */
    @Test
    void theNullTypeIsANullBitAndAZeroSlot() {
        RowType type = (RowType) DataTypes.ROW(DataTypes.FIELD("i", DataTypes.INT()),
                DataTypes.FIELD("n", DataTypes.NULL()), DataTypes.FIELD("s", DataTypes.STRING())).getLogicalType();
        List<GenericRowData> rows = List.of(GenericRowData.of(7, null, StringData.fromString("a long string")),
                GenericRowData.ofKind(RowKind.DELETE, null, null, StringData.fromString("short")));
        List<BinaryRowData> got = nativeRows(type, rows, OutputFormat.FLINK_ROWS);
        for (int r = 0; r < rows.size(); r++) {
            BinaryRowData expected = new BinaryRowData(3);
            BinaryRowWriter writer = new BinaryRowWriter(expected);
            GenericRowData row = rows.get(r);
            writer.writeRowKind(row.getRowKind());
            if (row.isNullAt(0)) {
                writer.setNullAt(0);
            } else {
                writer.writeInt(0, row.getInt(0));
            }
            writer.setNullAt(1);
            writer.writeString(2, row.getString(2));
            writer.complete();
            assertArrayEquals(bytes(expected), bytes(got.get(r)), "row " + r);
            assertTrue(got.get(r).isNullAt(1));
        }
    }

    @Test
    void aNestedOutputTypeIsRefusedWithAMessage() {
        RowType type = (RowType) DataTypes.ROW(DataTypes.FIELD("i", DataTypes.INT()),
                DataTypes.FIELD("a", DataTypes.ARRAY(DataTypes.INT()))).getLogicalType();
        assertFalse(BinaryRowExit.supports(type));
        NativeException e = assertThrows(NativeException.class,
                () -> nativeRows(type, List.of(GenericRowData.of(1, null)), OutputFormat.FLINK_ROWS));
        assertTrue(e.getMessage().contains("output column `a`") && e.getMessage().contains("GATUN_OUTPUT_ARROW"),
                e.getMessage());
        RowType flat = (RowType) DataTypes.ROW(DataTypes.FIELD("i", DataTypes.INT())).getLogicalType();
        assertTrue(BinaryRowExit.supports(flat));
    }

    @Test
    void bindRefusesBatchesOfAnotherFormatOrArity() {
        RowType type = (RowType) DataTypes.ROW(DataTypes.FIELD("i", DataTypes.INT()),
                DataTypes.FIELD("s", DataTypes.STRING())).getLogicalType();
        List<GenericRowData> rows = List.of(GenericRowData.of(1, StringData.fromString("x")));
        IllegalArgumentException arrow = assertThrows(IllegalArgumentException.class,
                () -> withResult(type, rows, OutputFormat.ARROW, batch -> new BinaryRowExit(2).bind(batch)));
        assertTrue(arrow.getMessage().contains("not a batch of Flink rows"), arrow.getMessage());
        IllegalArgumentException arity = assertThrows(IllegalArgumentException.class,
                () -> withResult(type, rows, OutputFormat.FLINK_ROWS, batch -> new BinaryRowExit(9).bind(batch)));
        assertTrue(arity.getMessage().contains("row 0 has 24 bytes: not a Flink row of 9 fields"), arity.getMessage());
    }

    @Test
    void aTrailingWatermarkColumnIsCopiedAtBind() {
        RowType type = (RowType) DataTypes.ROW(DataTypes.FIELD("i", DataTypes.INT()),
                DataTypes.FIELD("t", DataTypes.TIMESTAMP(3).notNull())).getLogicalType();
        TypeMapping types = TypeMapping.defaults();
        BinaryRowExit exit = new BinaryRowExit(2);
        try (NativeAllocator allocator = Transposes.allocator("binary-row exit");
             BatchWriter writer = new BatchWriter(type, Transposes.allFields(type), types, 4, true, allocator)) {
            for (long t : new long[] {5, 3, 9, 12}) {
                writer.write(GenericRowData.of((int) t, TimestampData.fromEpochMillis(t)));
            }
            RecordBatch input = writer.finish();
            WatermarkProgress progress = new WatermarkProgress(2);
            try (NativeOperator calc = NativeOperator.create(NativeOperator.Kind.CALC,
                    TestPlans.identityWithWatermarks(input.schema(), 1, 1), input.schema(),
                    new Schema(types.fields(type), Map.of()), OutputFormat.FLINK_ROWS, allocator);
                 RecordBatch out = calc.process(input, progress)) {
                exit.bind(out);
            }
            // 5 > 0 + 2 after row 0; 9 > 5 + 2 after row 2; 12 > 9 + 2 after row 3, the last row
            assertTrue(exit.hasWatermarks());
            assertEquals(List.of(WatermarkProgress.NONE, 5L, WatermarkProgress.NONE, 9L),
                    List.of(exit.watermarkBefore(0), exit.watermarkBefore(1), exit.watermarkBefore(2),
                            exit.watermarkBefore(3)));
            assertEquals(12, progress.after());
            assertEquals(9, exit.row(2).getInt(0));
            assertThrows(IndexOutOfBoundsException.class, () -> exit.watermarkBefore(4));
        }
    }

    @Test
    void anEmptyBatchHasNoRows() {
        RowType type = (RowType) DataTypes.ROW(DataTypes.FIELD("i", DataTypes.INT())).getLogicalType();
        BinaryRowExit exit = new BinaryRowExit(1);
        withResult(type, List.of(), OutputFormat.FLINK_ROWS, exit::bind);
        assertEquals(0, exit.rowCount());
        assertThrows(IndexOutOfBoundsException.class, () -> exit.row(0));
    }

    private static void assertNativeRowsEqualFlinks(RowType type, TypeMapping types, List<GenericRowData> rows,
                                                    int batchRows, boolean changelog, String context) {
        List<BinaryRowData> kept = new ArrayList<>();
        try (NativeAllocator allocator = Transposes.allocator("binary-row exit");
             BatchWriter writer = new BatchWriter(type, Transposes.allFields(type), types, batchRows, !changelog,
                     allocator)) {
            List<RecordBatch> batches = Transposes.writeAll(writer, rows);
            try (NativeOperator calc = NativeOperator.create(NativeOperator.Kind.CALC,
                    TestPlans.identity(writer.schema()), writer.schema(), new Schema(types.fields(type), Map.of()),
                    OutputFormat.FLINK_ROWS, allocator)) {
                BinaryRowExit exit = new BinaryRowExit(type.getFieldCount());
                RowDataSerializer downstream = new RowDataSerializer(type);
                int k = 0;
                for (int b = 0; b < batches.size(); b++) {
                    try (RecordBatch out = calc.process(batches.set(b, null), null)) {
                        exit.bind(out);
                    }
                    for (int i = 0; i < exit.rowCount(); i++, k++) {
                        String where = context + ", batch " + b + " row " + i + " (input row " + k + ")";
                        GenericRowData want = rows.get(k);
                        byte[] flink = bytes(new RowDataSerializer(type).toBinaryRow(want));
                        BinaryRowData fresh = exit.row(i);
                        assertArrayEquals(flink, bytes(fresh), where);
                        assertArrayEquals(flink, bytes(exit.reusedRow(i)), where);
                        assertSame(exit.reusedRow(i), exit.reusedRow(0));
                        assertEquals(WatermarkProgress.NONE, exit.watermarkBefore(i), "no watermark column");
                        assertSameValues(type, want, fresh, where);
                        RowData copy = downstream.copy(fresh);
                        assertInstanceOf(BinaryRowData.class, copy);
                        assertArrayEquals(flink, bytes((BinaryRowData) copy), where);
                        kept.add(fresh);
                    }
                }
                assertEquals(rows.size(), k, context + ": rows read back");
            } finally {
                batches.stream().filter(Objects::nonNull).forEach(RecordBatch::close);
            }
        }
        // Every batch is closed and the exit was rebound: rows handed out are unchanged.
        for (int k = 0; k < kept.size(); k++) {
            assertArrayEquals(bytes(new RowDataSerializer(type).toBinaryRow(rows.get(k))), bytes(kept.get(k)),
                    context + ", kept row " + k);
        }
    }

    /** Each field through Flink's getters, and the row kind. */
    private static void assertSameValues(RowType type, RowData expected, BinaryRowData actual, String where) {
        assertEquals(expected.getRowKind(), actual.getRowKind(), where);
        for (int i = 0; i < type.getFieldCount(); i++) {
            int f = i;
            LogicalType t = type.getTypeAt(f);
            RowData.FieldGetter getter = RowData.createFieldGetter(t, f);
            Object e = getter.getFieldOrNull(expected);
            Object a = getter.getFieldOrNull(actual);
            boolean same = e instanceof byte[] eb ? a instanceof byte[] ab && Arrays.equals(eb, ab) : Objects.equals(e, a);
            assertTrue(same, () -> where + ", field " + f + " " + t.asSummaryString() + ": expected "
                    + RowAssertions.render(t, e) + ", read " + RowAssertions.render(t, a));
        }
    }

    /** The rows of an identity Calc over {@code rows}, each kept from {@link BinaryRowExit#row}. */
    private static List<BinaryRowData> nativeRows(RowType type, List<GenericRowData> rows, OutputFormat format) {
        List<BinaryRowData> out = new ArrayList<>();
        withResult(type, rows, format, batch -> {
            BinaryRowExit exit = new BinaryRowExit(type.getFieldCount()).bind(batch);
            for (int i = 0; i < exit.rowCount(); i++) {
                out.add(exit.row(i));
            }
        });
        return out;
    }

    /** Runs an identity Calc over {@code rows} (one batch) and hands its result to {@code use}. */
    private static void withResult(RowType type, List<GenericRowData> rows, OutputFormat format,
                                   Consumer<RecordBatch> use) {
        TypeMapping types = TypeMapping.defaults();
        boolean changelog = rows.stream().anyMatch(r -> r.getRowKind() != RowKind.INSERT);
        try (NativeAllocator allocator = Transposes.allocator("binary-row exit");
             BatchWriter writer = new BatchWriter(type, Transposes.allFields(type), types, Math.max(1, rows.size()),
                     !changelog, allocator)) {
            rows.forEach(writer::write);
            RecordBatch input = writer.finish();
            NativeOperator calc;
            try {
                calc = NativeOperator.create(NativeOperator.Kind.CALC, TestPlans.identity(input.schema()),
                        input.schema(), new Schema(types.fields(type), Map.of()), format, allocator);
            } catch (RuntimeException | Error e) {
                input.close();
                throw e;
            }
            try (calc; RecordBatch out = calc.process(input, null)) {
                use.accept(out);
            }
        }
    }

    private static byte[] bytes(BinaryRowData row) {
        return BinarySegmentUtils.copyToBytes(row.getSegments(), row.getOffset(), row.getSizeInBytes());
    }
}
