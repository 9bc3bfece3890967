package dev.gatun.arrow.oracle;

import static dev.gatun.arrow.testing.SchemaAssertions.assertSameSchema;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gatun.arrow.batch.BatchState;
import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.cdata.CDataExporter;
import dev.gatun.arrow.cdata.CDataImporter;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.arrow.testing.OurValues;
import dev.gatun.arrow.testing.TestTypes;
import dev.gatun.arrow.testing.TestValues;
import dev.gatun.arrow.testing.TestValues.Nulls;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.Schema;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Arrow Java's C Data module as an independent oracle: it imports what we export and must read
 * every value we wrote; it copies those values into vectors of its own, exports them, and we must
 * read every value back.
 */
@ExtendWith(LeakCheckExtension.class)
class ArrowJavaOracleTest {
    private static BufferAllocator java;

    @BeforeAll
    static void openAllocator() {
        java = new RootAllocator();
    }

    @AfterAll
    static void closeAllocator() {
        java.close(); // throws if Arrow Java still holds any of its memory
    }

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
    void oneColumnBothWays(String name, Field field, Nulls nulls, int rows) {
        roundTrip(Schema.of(field), rows, nulls, name.hashCode() * 31L + rows);
    }

    @Test
    void everyTypeInOneBatch() {
        for (long seed = 0; seed < 5; seed++) {
            roundTrip(new Schema(TestTypes.all(), Map.of("origin", "gatun")), 200, Nulls.RANDOM, seed);
        }
    }

    @Test
    void zeroColumnBatchKeepsItsRowCount() {
        roundTrip(new Schema(List.of(), Map.of()), 42, Nulls.NONE, 1);
    }

    private static void roundTrip(Schema schema, int rows, Nulls nulls, long seed) {
        Random random = new Random(seed);
        List<List<Object>> expected = new ArrayList<>();
        for (Field f : schema.fields()) {
            expected.add(TestValues.column(f, rows, nulls, random));
        }
        try (RecordBatch batch = OurValues.batch(schema, expected, rows);
             ArrowArray array = ArrowArray.allocateNew(java);
             ArrowSchema arrowSchema = ArrowSchema.allocateNew(java)) {
            CDataExporter.exportSchema(schema, address(arrowSchema.memoryAddress()));
            CDataExporter.exportBatch(batch, address(array.memoryAddress()));
            assertEquals(BatchState.EXPORTED, batch.state());
            try (VectorSchemaRoot imported = Data.importVectorSchemaRoot(java, array, arrowSchema, null)) {
                assertEquals(rows, imported.getRowCount());
                assertEquals(expected, ArrowJavaValues.columns(imported), "Arrow Java reads what we wrote");
                for (int c = 0; c < schema.size(); c++) {
                    long nullsExpected = expected.get(c).stream().filter(v -> v == null).count();
                    assertEquals(nullsExpected, imported.getVector(c).getNullCount(), "null count of " + schema.field(c).name());
                }
                importWhatArrowJavaWrites(imported, schema, expected, rows);
            }
            assertEquals(BatchState.RELEASED, batch.state(), "Arrow Java released our export");
        }
    }

    /** Arrow Java copies the values into its own vectors and exports them; we import and compare. */
    private static void importWhatArrowJavaWrites(VectorSchemaRoot source, Schema schema, List<List<Object>> expected,
                                                  int rows) {
        try (VectorSchemaRoot copy = VectorSchemaRoot.create(source.getSchema(), java);
             ArrowArray array = ArrowArray.allocateNew(java);
             ArrowSchema arrowSchema = ArrowSchema.allocateNew(java)) {
            copy.allocateNew();
            for (int c = 0; c < schema.size(); c++) {
                FieldVector from = source.getVector(c);
                FieldVector to = copy.getVector(c);
                if (to instanceof NullVector n) {
                    n.setValueCount(rows);
                    continue;
                }
                for (int r = 0; r < rows; r++) {
                    to.copyFromSafe(r, r, from);
                }
                to.setValueCount(rows);
            }
            copy.setRowCount(rows);
            Data.exportVectorSchemaRoot(java, copy, null, array, arrowSchema);
            Schema importedSchema = CDataImporter.importSchema(address(arrowSchema.memoryAddress()));
            assertSameSchema(schema, importedSchema);
            assertEquals(schema.metadata(), importedSchema.metadata());
            try (RecordBatch ours = CDataImporter.importBatch(address(array.memoryAddress()), importedSchema)) {
                assertEquals(BatchState.IMPORTED, ours.state());
                assertEquals(rows, ours.rowCount());
                assertEquals(expected, OurValues.columns(ours), "we read what Arrow Java wrote");
                for (int c = 0; c < schema.size(); c++) {
                    long nullsExpected = expected.get(c).stream().filter(v -> v == null).count();
                    assertEquals(nullsExpected, ours.column(c).nullCount(), "null count of " + schema.field(c).name());
                }
            }
        }
    }

    private static MemorySegment address(long address) {
        return MemorySegment.ofAddress(address);
    }
}
