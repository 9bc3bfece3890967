package dev.gatun.arrow.oracle;

import static dev.gatun.arrow.testing.SchemaAssertions.assertSameSchema;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.batch.BatchState;
import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.cdata.CDataExporter;
import dev.gatun.arrow.cdata.CDataImporter;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.arrow.testing.OurValues;
import dev.gatun.arrow.testing.RustRoundTrip;
import dev.gatun.arrow.testing.Slices;
import dev.gatun.arrow.testing.TestTypes;
import dev.gatun.arrow.testing.TestValues;
import dev.gatun.arrow.testing.TestValues.Nulls;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.Schema;
import dev.gatun.ffm.NativeArrowException;
import dev.gatun.ffm.internal.ArrowArray;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * arrow-rs as an independent oracle through {@code gatun_roundtrip}: it imports our export,
 * validates it fully (offsets, UTF-8, children) and exports the same buffers back, which we import
 * and compare value by value. Slices (non-zero offsets) are produced by setting offsets on the
 * exported structs, both at the root and per column.
 */
@ExtendWith(LeakCheckExtension.class)
class RustOracleTest {
    static Stream<Arguments> everyTypeNullPatternAndSize() {
        List<Arguments> out = new ArrayList<>();
        for (Field f : TestTypes.all()) {
            for (Nulls nulls : Nulls.values()) {
                for (int rows : new int[] {0, 1, 70}) {
                    out.add(Arguments.of(f.name(), f, nulls, rows));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} nulls={2} rows={3}")
    @MethodSource("everyTypeNullPatternAndSize")
    void oneColumn(String name, Field field, Nulls nulls, int rows) {
        Schema schema = Schema.of(field);
        List<List<Object>> expected = values(schema, rows, nulls, name.hashCode() + rows);
        assertRoundTrip(schema, expected, rows, null, 0, rows);
    }

    static Stream<Arguments> everyTypeSliced() {
        return TestTypes.all().stream().map(f -> Arguments.of(f.name(), f));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyTypeSliced")
    void columnSlicesWithOffsets(String name, Field field) {
        Schema schema = Schema.of(field);
        int rows = 40;
        List<List<Object>> expected = values(schema, rows, Nulls.RANDOM, name.hashCode());
        for (int[] slice : new int[][] {{3, 20}, {17, 23}, {39, 1}, {40, 0}, {0, 40}}) {
            int from = slice[0];
            int length = slice[1];
            List<Long> nulls = List.of(Slices.nulls(expected.get(0), from, length));
            // arrow-rs rejects an empty Utf8/Binary slice at a non-zero offset ("first offset is larger
            // than values length 0"): its import sizes the values buffer from the slice only.
            if (length > 0 || !(field.type() instanceof ArrowType.Utf8 || field.type() instanceof ArrowType.Binary)) {
                assertRoundTrip(schema, expected, rows, in -> Slices.sliceColumns(in, from, length, nulls), from, length);
            }
            assertDirectImport(schema, expected, rows, in -> Slices.sliceColumns(in, from, length, nulls), from, length);
        }
    }

    @Test
    void rootSliceOffsetsEveryColumn() {
        Schema schema = new Schema(TestTypes.all(), Map.of());
        List<List<Object>> expected = values(schema, 100, Nulls.RANDOM, 7);
        assertRoundTrip(schema, expected, 100, in -> Slices.sliceRoot(in, 13, 61), 13, 61);
        assertDirectImport(schema, expected, 100, in -> Slices.sliceRoot(in, 13, 61), 13, 61);
        List<Long> unknown = schema.fields().stream().map(f -> -1L).toList();
        assertDirectImport(schema, expected, 100, in -> Slices.sliceColumns(in, 5, 90, unknown), 5, 90);
    }

    @Test
    void everyTypeInOneBatch() {
        Schema schema = new Schema(TestTypes.all(), Map.of("origin", "gatun"));
        for (long seed = 0; seed < 5; seed++) {
            assertRoundTrip(schema, values(schema, 300, Nulls.RANDOM, seed), 300, null, 0, 300);
        }
    }

    @Test
    void zeroColumnBatchKeepsItsRowCount() {
        assertRoundTrip(new Schema(List.of(), Map.of()), List.of(), 17, null, 0, 17);
    }

    @Test
    void rustRejectsInvalidUtf8AndEverythingIsReleased() {
        Schema schema = Schema.of(Field.nullable("s", ArrowType.UTF8));
        RecordBatch batch = RecordBatch.allocate(schema, 2);
        try (batch) {
            batch.column(0, dev.gatun.arrow.vector.VarBinaryVector.class).setBytes(0, new byte[] {(byte) 0xC3, 0x28});
            batch.seal(1);
            NativeArrowException e = assertThrows(NativeArrowException.class, () -> RustRoundTrip.roundTrip(batch));
            assertTrue(e.getMessage().contains("validation"), e.getMessage());
            assertEquals(BatchState.RELEASED, batch.state(), "Rust consumed and released the input");
        }
    }

    private static List<List<Object>> values(Schema schema, int rows, Nulls nulls, long seed) {
        Random random = new Random(seed);
        List<List<Object>> out = new ArrayList<>();
        for (Field f : schema.fields()) {
            out.add(TestValues.column(f, rows, nulls, random));
        }
        return out;
    }

    private static List<List<Object>> slice(List<List<Object>> columns, int from, int length) {
        return columns.stream().map(c -> (List<Object>) new ArrayList<>(c.subList(from, from + length))).toList();
    }

    private static void assertRoundTrip(Schema schema, List<List<Object>> expected, int rows,
                                        java.util.function.Consumer<MemorySegment> mutate, int from, int length) {
        Schema[] rustSchema = new Schema[1];
        try (RecordBatch batch = OurValues.batch(schema, expected, rows);
             RecordBatch back = RustRoundTrip.roundTrip(batch, mutate, rustSchema)) {
            // Rust may already have released an input without buffers (Null type, empty arrays).
            assertTrue(batch.state() == BatchState.EXPORTED || batch.state() == BatchState.RELEASED);
            assertSameSchema(schema, rustSchema[0]);
            assertEquals(schema.metadata(), rustSchema[0].metadata());
            assertEquals(length, back.rowCount());
            assertEquals(slice(expected, from, length), OurValues.columns(back));
            for (int c = 0; c < schema.size(); c++) {
                long nulls = Slices.nulls(expected.get(c), from, length);
                assertEquals(nulls, back.column(c).nullCount(), "null count of " + schema.field(c).name());
            }
            back.close();
            assertEquals(BatchState.RELEASED, batch.state(), "releasing Rust's output released our input");
        }
    }

    /** The same slice imported straight from our export (no Rust in between). */
    private static void assertDirectImport(Schema schema, List<List<Object>> expected, int rows,
                                           java.util.function.Consumer<MemorySegment> mutate, int from, int length) {
        try (Arena arena = Arena.ofConfined(); RecordBatch batch = OurValues.batch(schema, expected, rows)) {
            MemorySegment struct = ArrowArray.allocate(arena);
            CDataExporter.exportBatch(batch, struct);
            mutate.accept(struct);
            try (RecordBatch imported = CDataImporter.importBatch(struct, schema)) {
                assertEquals(MemorySegment.NULL, struct.get(ValueLayout.ADDRESS, ArrowArray.release$offset()), "moved");
                assertEquals(slice(expected, from, length), OurValues.columns(imported));
                for (int c = 0; c < schema.size(); c++) {
                    assertEquals(Slices.nulls(expected.get(c), from, length), imported.column(c).nullCount());
                }
            }
            assertEquals(BatchState.RELEASED, batch.state());
        }
    }
}
