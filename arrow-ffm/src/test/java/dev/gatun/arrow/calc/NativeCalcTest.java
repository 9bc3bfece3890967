package dev.gatun.arrow.calc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.batch.BatchState;
import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.Schema;
import dev.gatun.arrow.vector.Int32Vector;
import dev.gatun.arrow.cdata.CDataExporter;
import dev.gatun.arrow.vector.VarBinaryVector;
import dev.gatun.ffm.GatunLibrary;
import dev.gatun.ffm.GatunNative;
import dev.gatun.ffm.ReleaseUpcall;
import dev.gatun.ffm.internal.ArrowSchema;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import dev.gatun.ffm.NativeException;
import io.substrait.proto.ExtendedExpression;
import io.substrait.proto.NamedStruct;
import io.substrait.proto.Type;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Java owner of a native Calc handle: lifecycle, error mapping and leak-freedom. Plans with
 * expressions are covered by the Rust tests and, through Flink, by planner-hooks.
 */
@ExtendWith(LeakCheckExtension.class)
class NativeCalcTest {
    private static final Schema INPUT = Schema.of(Field.nullable("x", ArrowType.INT32));
    private static final Schema NO_COLUMNS = new Schema(List.of(), Map.of());

    /** An ExtendedExpression over {@link #INPUT} with no expressions: a Calc of zero columns. */
    private static byte[] noExpressions() {
        return ExtendedExpression.newBuilder()
                .setBaseSchema(NamedStruct.newBuilder()
                        .addNames("x")
                        .setStruct(Type.Struct.newBuilder()
                                .addTypes(Type.newBuilder().setI32(Type.I32.newBuilder()
                                        .setNullability(Type.Nullability.NULLABILITY_NULLABLE)))
                                .setNullability(Type.Nullability.NULLABILITY_REQUIRED)))
                .build()
                .toByteArray();
    }

    private static RecordBatch rows(int n) {
        RecordBatch batch = RecordBatch.allocate(INPUT, n);
        for (int r = 0; r < n; r++) {
            batch.column(0, Int32Vector.class).setInt(r, r);
        }
        batch.seal(n);
        return batch;
    }

    @Test
    void malformedPlanFailsWithTheNativeMessageAndLeavesNoHandle() {
        byte[] garbage = {(byte) 0xff, 0x13, 0x37, 0x00, (byte) 0x80};
        NativeException e = assertThrows(NativeException.class,
                () -> NativeCalc.create(garbage, INPUT, NO_COLUMNS, OutputFormat.ARROW, NativeAllocator.root()));
        assertTrue(e.getMessage().contains("gatun_calc_create"), e.getMessage());
        assertEquals(0, GatunLibrary.stats().liveHandles());
    }

    @Test
    void aPlanWithoutExpressionsKeepsTheRowCountAndConsumesItsInput() {
        try (NativeCalc calc = NativeCalc.create(noExpressions(), INPUT, NO_COLUMNS, OutputFormat.ARROW,
                NativeAllocator.root())) {
            assertEquals(1, GatunLibrary.stats().liveHandles());
            RecordBatch input = rows(7);
            try (RecordBatch out = calc.evaluate(input)) {
                assertEquals(7, out.rowCount());
                assertEquals(0, out.columnCount());
            }
            assertEquals(BatchState.RELEASED, input.state());
        }
        assertEquals(0, GatunLibrary.stats().liveHandles());
    }

    @Test
    void aBatchOfAnotherSchemaIsRejectedAndReleased() {
        try (NativeCalc calc = NativeCalc.create(noExpressions(), INPUT, NO_COLUMNS, OutputFormat.ARROW,
                NativeAllocator.root())) {
            RecordBatch other = RecordBatch.allocate(Schema.of(Field.nullable("s", ArrowType.UTF8)), 1);
            other.seal(0);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> calc.evaluate(other));
            assertTrue(e.getMessage().contains("differs from the Calc's input schema"), e.getMessage());
            assertEquals(BatchState.RELEASED, other.state());
        }
    }

    @Test
    void theFlinkRowsFormatGivesOneBinaryColumnOfRows() {
        try (NativeCalc calc = NativeCalc.create(noExpressions(), INPUT, NO_COLUMNS, OutputFormat.FLINK_ROWS,
                NativeAllocator.root())) {
            assertEquals(OutputFormat.FLINK_ROWS, calc.outputFormat());
            assertEquals(Schema.of(Field.notNull(NativeCalc.FLINK_ROW_COLUMN, ArrowType.BINARY)), calc.outputSchema());
            try (RecordBatch out = calc.evaluate(rows(3))) {
                VarBinaryVector column = out.column(0, VarBinaryVector.class);
                for (int r = 0; r < 3; r++) { // zero fields: the 8-byte header, row kind INSERT
                    assertArrayEquals(new byte[8], column.getBytes(r));
                }
            }
        }
    }

    @Test
    void anUnknownOutputFormatIsRejectedByRust() {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment plan = call.allocateFrom(ValueLayout.JAVA_BYTE, noExpressions());
            MemorySegment in = ArrowSchema.allocate(call);
            MemorySegment expected = ArrowSchema.allocate(call);
            MemorySegment out = ArrowSchema.allocate(call);
            CDataExporter.exportSchema(NativeAllocator.root(), INPUT, in);
            CDataExporter.exportSchema(NativeAllocator.root(), NO_COLUMNS, expected);
            try {
                for (int format : new int[] {-1, 2, 42}) {
                    NativeException e = assertThrows(NativeException.class,
                            () -> GatunNative.calcCreate(plan, in, expected, format, out));
                    assertTrue(e.getMessage().contains("argument `output_format` is " + format), e.getMessage());
                    assertEquals(MemorySegment.NULL, ArrowSchema.release(out), "out_schema written on failure");
                }
            } finally {
                ReleaseUpcall.releaseSchema(in);
                ReleaseUpcall.releaseSchema(expected);
            }
        }
        assertEquals(0, GatunLibrary.stats().liveHandles());
    }

    @Test
    void aClosedCalcRefusesWorkAndClosesOnce() {
        NativeCalc calc = NativeCalc.create(noExpressions(), INPUT, NO_COLUMNS, OutputFormat.ARROW,
                NativeAllocator.root());
        calc.close();
        calc.close();
        RecordBatch input = rows(1);
        try {
            assertThrows(IllegalStateException.class, () -> calc.evaluate(input));
        } finally {
            input.close();
        }
        assertEquals(0, GatunLibrary.stats().liveHandles());
    }
}
