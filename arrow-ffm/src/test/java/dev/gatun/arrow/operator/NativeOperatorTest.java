package dev.gatun.arrow.operator;

import static dev.gatun.arrow.operator.NativeOperator.Kind.CALC;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.batch.BatchState;
import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.cdata.CDataExporter;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.Schema;
import dev.gatun.arrow.vector.Int32Vector;
import dev.gatun.arrow.vector.Int8Vector;
import dev.gatun.arrow.vector.VarBinaryVector;
import dev.gatun.ffm.GatunLibrary;
import dev.gatun.ffm.GatunNative;
import dev.gatun.ffm.NativeException;
import dev.gatun.ffm.NativeExecutionException;
import dev.gatun.ffm.NativeInvalidArgumentException;
import dev.gatun.ffm.ReleaseUpcall;
import dev.gatun.ffm.internal.ArrowSchema;
import io.substrait.proto.ExtendedExpression;
import io.substrait.proto.NamedStruct;
import io.substrait.proto.Type;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Java owner of a native operator handle: lifecycle (process, flush, close), error mapping,
 * the watermark progress round trip and leak-freedom. Plans with expressions are covered by the
 * Rust tests and, through Flink, by planner-hooks; watermark semantics by {@link WatermarkReferenceTest}.
 */
@ExtendWith(LeakCheckExtension.class)
class NativeOperatorTest {
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

    private static NativeOperator calc(OutputFormat format) {
        return NativeOperator.create(CALC, noExpressions(), INPUT, NO_COLUMNS, format, NativeAllocator.root());
    }

    private static RecordBatch rows(int n) {
        RecordBatch batch = RecordBatch.allocate(INPUT, n);
        for (int r = 0; r < n; r++) {
            batch.column(0, Int32Vector.class).setInt(r, r);
        }
        batch.seal(n);
        return batch;
    }

    private static Long[] longs(Long... values) {
        return values;
    }

    @Test
    void malformedPlanFailsWithTheNativeMessageAndLeavesNoHandle() {
        byte[] garbage = {(byte) 0xff, 0x13, 0x37, 0x00, (byte) 0x80};
        NativeException e = assertThrows(NativeException.class, () -> NativeOperator.create(CALC, garbage, INPUT,
                NO_COLUMNS, OutputFormat.ARROW, NativeAllocator.root()));
        assertTrue(e.getMessage().contains("gatun_operator_create"), e.getMessage());
        assertEquals(0, GatunLibrary.stats().liveHandles());
    }

    @Test
    void aPlanWithoutExpressionsKeepsTheRowCountAndConsumesItsInput() {
        try (NativeOperator calc = calc(OutputFormat.ARROW)) {
            assertEquals(1, GatunLibrary.stats().liveHandles());
            assertEquals(CALC, calc.kind());
            assertFalse(calc.assignsWatermarks());
            RecordBatch input = rows(7);
            try (RecordBatch out = calc.process(input, null)) {
                assertEquals(7, out.rowCount());
                assertEquals(0, out.columnCount());
            }
            assertEquals(BatchState.RELEASED, input.state());
        }
        assertEquals(0, GatunLibrary.stats().liveHandles());
    }

    @Test
    void flushOfACalcEmitsNothing() {
        try (NativeOperator calc = calc(OutputFormat.ARROW)) {
            assertNull(calc.flush());
            try (RecordBatch out = calc.process(rows(2), null)) {
                assertEquals(2, out.rowCount());
            }
            assertNull(calc.flush(), "a Calc buffers nothing");
        }
    }

    @Test
    void aBatchOfAnotherSchemaIsRejectedAndReleased() {
        try (NativeOperator calc = calc(OutputFormat.ARROW)) {
            RecordBatch other = RecordBatch.allocate(Schema.of(Field.nullable("s", ArrowType.UTF8)), 1);
            other.seal(0);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> calc.process(other, null));
            assertTrue(e.getMessage().contains("differs from the operator's input schema"), e.getMessage());
            assertEquals(BatchState.RELEASED, other.state());
        }
    }

    @Test
    void theFlinkRowsFormatGivesOneBinaryColumnOfRows() {
        try (NativeOperator calc = calc(OutputFormat.FLINK_ROWS)) {
            assertEquals(OutputFormat.FLINK_ROWS, calc.outputFormat());
            assertEquals(Schema.of(Field.notNull(NativeOperator.FLINK_ROW_COLUMN, ArrowType.BINARY)),
                    calc.outputSchema());
            try (RecordBatch out = calc.process(rows(3), null)) {
                VarBinaryVector column = out.column(0, VarBinaryVector.class);
                for (int r = 0; r < 3; r++) { // zero fields: the 8-byte header, row kind INSERT
                    assertArrayEquals(new byte[8], column.getBytes(r));
                }
            }
        }
    }

    @Test
    void unknownKindsAndOutputFormatsAreRejectedByRust() {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment plan = call.allocateFrom(ValueLayout.JAVA_BYTE, noExpressions());
            MemorySegment in = ArrowSchema.allocate(call);
            MemorySegment expected = ArrowSchema.allocate(call);
            MemorySegment out = ArrowSchema.allocate(call);
            CDataExporter.exportSchema(NativeAllocator.root(), INPUT, in);
            CDataExporter.exportSchema(NativeAllocator.root(), NO_COLUMNS, expected);
            try {
                for (int format : new int[] {-1, 2, 42}) {
                    NativeException e = assertThrows(NativeInvalidArgumentException.class,
                            () -> GatunNative.operatorCreate(GatunNative.OPERATOR_CALC, plan, in, expected, format, out));
                    assertTrue(e.getMessage().contains("argument `output_format` is " + format), e.getMessage());
                    assertEquals(MemorySegment.NULL, ArrowSchema.release(out), "out_schema written on failure");
                }
                for (int kind : new int[] {0, 4, -1}) {
                    NativeException e = assertThrows(NativeInvalidArgumentException.class,
                            () -> GatunNative.operatorCreate(kind, plan, in, expected, GatunNative.OUTPUT_ARROW, out));
                    assertTrue(e.getMessage().contains("argument `kind` is " + Integer.toUnsignedString(kind)),
                            e.getMessage());
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
    void aClosedOperatorRefusesWorkAndClosesOnce() {
        NativeOperator calc = calc(OutputFormat.ARROW);
        calc.close();
        calc.close();
        RecordBatch input = rows(1);
        try {
            assertThrows(IllegalStateException.class, () -> calc.process(input, null));
            assertThrows(IllegalStateException.class, calc::flush);
        } finally {
            input.close();
        }
        assertEquals(0, GatunLibrary.stats().liveHandles());
    }

    @Test
    void theWatermarkProgressCrossesInAndOut() {
        Schema input = WatermarkBatches.input(true);
        try (NativeOperator op = NativeOperator.create(CALC, WatermarkBatches.plan(input, 0), input,
                WatermarkBatches.OUTPUT, OutputFormat.ARROW, NativeAllocator.root())) {
            assertTrue(op.assignsWatermarks());
            assertEquals(List.of("a", NativeOperator.ROW_KIND_COLUMN, NativeOperator.WATERMARK_COLUMN),
                    op.outputSchema().fields().stream().map(Field::name).toList());
            assertEquals(Field.nullable(NativeOperator.WATERMARK_COLUMN, ArrowType.INT64), op.outputSchema().field(2));
            WatermarkProgress progress = new WatermarkProgress(5);
            assertEquals(WatermarkProgress.NONE, progress.after());
            // a > 0 keeps rows 0, 2 and 3; 10 (after row 0) and 30 (after the dropped row 1) collapse
            // into 30 before row 2; 40 - 30 > 5 after row 3, the last output row.
            RecordBatch batch = WatermarkBatches.batch(input, new int[] {1, -1, 2, 3},
                    longs(1L, 2L, 3L, 4L), longs(10L, 30L, null, 40L), new byte[] {0, 1, 2, 3});
            try (RecordBatch out = op.process(batch, progress)) {
                assertEquals(3, out.rowCount());
                assertEquals(Arrays.asList(null, 30L, null), WatermarkBatches.watermarkColumn(out));
                assertEquals(3, out.column(1, Int8Vector.class).getByte(2));
            }
            assertEquals(List.of(40L, 40L, 5L, 40L),
                    List.of(progress.current(), progress.last(), progress.interval(), progress.after()));
            // The next batch starts from the returned state: 44 - 40 is not > 5, 46 - 40 is.
            batch = WatermarkBatches.batch(input, new int[] {1, 1}, longs(5L, 6L), longs(44L, 46L), new byte[2]);
            try (RecordBatch out = op.process(batch, progress)) {
                assertEquals(Arrays.asList(null, null), WatermarkBatches.watermarkColumn(out));
            }
            assertEquals(List.of(46L, 46L, 46L),
                    List.of(progress.current(), progress.last(), progress.after()));
            assertNull(op.flush());
        }
    }

    @Test
    void aNullRowtimeFailsWithFlinksMessageAndKeepsTheProgress() {
        Schema input = WatermarkBatches.input(false);
        try (NativeOperator op = NativeOperator.create(CALC, WatermarkBatches.plan(input, null), input,
                WatermarkBatches.OUTPUT, OutputFormat.FLINK_ROWS, NativeAllocator.root())) {
            assertEquals(List.of(NativeOperator.FLINK_ROW_COLUMN, NativeOperator.WATERMARK_COLUMN),
                    op.outputSchema().fields().stream().map(Field::name).toList());
            WatermarkProgress progress = new WatermarkProgress(7, 3, 0);
            RecordBatch batch = WatermarkBatches.batch(input, new int[] {1, 2}, longs(1L, null), longs(9L, 9L), null);
            NativeExecutionException e = assertThrows(NativeExecutionException.class, () -> op.process(batch, progress));
            assertEquals("gatun_operator_process: RowTime field should not be null, please convert it to a "
                    + "non-null long value.", e.nativeMessage());
            assertEquals(BatchState.RELEASED, batch.state());
            assertEquals(List.of(7L, 3L, WatermarkProgress.NONE),
                    List.of(progress.current(), progress.last(), progress.after()));
        }
    }

    @Test
    void theProgressMustMatchThePlanInJavaAndInRust() {
        Schema input = WatermarkBatches.input(false);
        try (NativeOperator withMarks = NativeOperator.create(CALC, WatermarkBatches.plan(input, null), input,
                WatermarkBatches.OUTPUT, OutputFormat.ARROW, NativeAllocator.root());
             NativeOperator plain = calc(OutputFormat.ARROW)) {
            RecordBatch batch = WatermarkBatches.batch(input, new int[] {1}, longs(1L), longs(1L), null);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> withMarks.process(batch, null));
            assertTrue(e.getMessage().contains("needs a WatermarkProgress"), e.getMessage());
            assertEquals(BatchState.RELEASED, batch.state());
            RecordBatch other = rows(1);
            e = assertThrows(IllegalArgumentException.class, () -> plain.process(other, new WatermarkProgress(0)));
            assertTrue(e.getMessage().contains("progress must be null"), e.getMessage());
            assertEquals(BatchState.RELEASED, other.state());

            RecordBatch raw = WatermarkBatches.batch(input, new int[] {1}, longs(1L), longs(1L), null);
            NativeException rust = assertThrows(NativeInvalidArgumentException.class,
                    () -> withMarks.processWithoutChecks(raw, null));
            assertTrue(rust.getMessage().contains("argument `progress` is NULL"), rust.getMessage());
            assertEquals(BatchState.RELEASED, raw.state());
            RecordBatch rawPlain = rows(1);
            WatermarkProgress untouched = new WatermarkProgress(1, 1, 1);
            rust = assertThrows(NativeInvalidArgumentException.class,
                    () -> plain.processWithoutChecks(rawPlain, untouched));
            assertTrue(rust.getMessage().contains("argument `progress` must be NULL"), rust.getMessage());
            assertEquals(BatchState.RELEASED, rawPlain.state());
            assertEquals(1, untouched.current());
        }
    }
}
