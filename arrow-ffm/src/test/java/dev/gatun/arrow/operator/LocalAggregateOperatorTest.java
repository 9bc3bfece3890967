package dev.gatun.arrow.operator;

import static dev.gatun.arrow.operator.NativeOperator.Kind.LOCAL_AGGREGATE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import dev.gatun.arrow.vector.Int64Vector;
import dev.gatun.arrow.vector.VarBinaryVector;
import dev.gatun.ffm.GatunLibrary;
import dev.gatun.ffm.NativeException;
import dev.gatun.ffm.NativePlanException;
import io.substrait.proto.AggregateFunction;
import io.substrait.proto.AggregateRel;
import io.substrait.proto.AggregationPhase;
import io.substrait.proto.Expression;
import io.substrait.proto.FunctionArgument;
import io.substrait.proto.NamedStruct;
import io.substrait.proto.Plan;
import io.substrait.proto.PlanRel;
import io.substrait.proto.ReadRel;
import io.substrait.proto.Rel;
import io.substrait.proto.RelRoot;
import io.substrait.proto.SimpleExtensionDeclaration;
import io.substrait.proto.Type;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The local-aggregate kind through the Java owner: process folds and returns nothing, flush emits
 * the groups and resets, held bytes, both output formats, a plan Rust refuses. The aggregate
 * semantics are covered by the Rust tests and, through Flink, by planner-hooks.
 */
@ExtendWith(LeakCheckExtension.class)
class LocalAggregateOperatorTest {
    private static final Schema INPUT = Schema.of(Field.nullable("x", ArrowType.INT32));
    /** GROUP BY x: x, COUNT(*), SUM(x) in Flink's local layout. */
    private static final Schema OUTPUT = Schema.of(Field.nullable("x", ArrowType.INT32),
            Field.nullable("count1$0", ArrowType.INT64), Field.nullable("sum$1", ArrowType.INT32));

    private static Expression field(int i) {
        return Expression.newBuilder().setSelection(Expression.FieldReference.newBuilder()
                .setDirectReference(Expression.ReferenceSegment.newBuilder()
                        .setStructField(Expression.ReferenceSegment.StructField.newBuilder().setField(i)))
                .setRootReference(Expression.FieldReference.RootReference.getDefaultInstance())).build();
    }

    private static SimpleExtensionDeclaration function(int anchor, String name) {
        return SimpleExtensionDeclaration.newBuilder().setExtensionFunction(
                SimpleExtensionDeclaration.ExtensionFunction.newBuilder().setFunctionAnchor(anchor).setName(name))
                .build();
    }

    private static AggregateRel.Measure measure(int anchor, AggregationPhase phase, Expression... arguments) {
        AggregateFunction.Builder f = AggregateFunction.newBuilder().setFunctionReference(anchor).setPhase(phase);
        for (Expression a : arguments) {
            f.addArguments(FunctionArgument.newBuilder().setValue(a));
        }
        return AggregateRel.Measure.newBuilder().setMeasure(f).build();
    }

    /** AggregateRel(GROUP BY x; COUNT(*), SUM(x)) over a ReadRel of {@link #INPUT}. */
    private static byte[] plan(AggregationPhase phase) {
        Type i32 = Type.newBuilder().setI32(Type.I32.newBuilder()
                .setNullability(Type.Nullability.NULLABILITY_NULLABLE)).build();
        ReadRel read = ReadRel.newBuilder()
                .setBaseSchema(NamedStruct.newBuilder().addNames("x").setStruct(Type.Struct.newBuilder()
                        .addTypes(i32).setNullability(Type.Nullability.NULLABILITY_REQUIRED)))
                .setNamedTable(ReadRel.NamedTable.newBuilder().addNames("input"))
                .build();
        AggregateRel aggregate = AggregateRel.newBuilder()
                .setInput(Rel.newBuilder().setRead(read))
                .addGroupingExpressions(field(0))
                .addGroupings(AggregateRel.Grouping.newBuilder().addExpressionReferences(0))
                .addMeasures(measure(1, phase))
                .addMeasures(measure(2, phase, field(0)))
                .build();
        return Plan.newBuilder()
                .addExtensions(function(1, "count:"))
                .addExtensions(function(2, "sum:i32"))
                .addRelations(PlanRel.newBuilder().setRoot(RelRoot.newBuilder()
                        .setInput(Rel.newBuilder().setAggregate(aggregate))))
                .build()
                .toByteArray();
    }

    private static NativeOperator aggregate(OutputFormat format) {
        return NativeOperator.create(LOCAL_AGGREGATE, plan(AggregationPhase.AGGREGATION_PHASE_INITIAL_TO_INTERMEDIATE),
                INPUT, OUTPUT, format, NativeAllocator.root());
    }

    private static RecordBatch rows(int... values) {
        RecordBatch batch = RecordBatch.allocate(INPUT, values.length);
        for (int r = 0; r < values.length; r++) {
            batch.column(0, Int32Vector.class).setInt(r, values[r]);
        }
        batch.seal(values.length);
        return batch;
    }

    @Test
    void processFoldsAndFlushEmitsTheGroupsOnce() {
        try (NativeOperator op = aggregate(OutputFormat.ARROW)) {
            assertEquals(LOCAL_AGGREGATE, op.kind());
            assertEquals(OUTPUT, op.outputSchema());
            assertNull(op.flush(), "no rows yet");
            long empty = op.heldBytes();
            RecordBatch first = rows(1, 2, 1);
            assertNull(op.process(first, null));
            assertEquals(BatchState.RELEASED, first.state());
            assertNull(op.process(rows(2, 3, 1), null));
            assertTrue(op.heldBytes() > empty, "held bytes grow with the groups");
            try (RecordBatch out = op.flush()) {
                assertEquals(3, out.rowCount());
                Int32Vector keys = out.column(0, Int32Vector.class);
                Int64Vector counts = out.column(1, Int64Vector.class);
                Int32Vector sums = out.column(2, Int32Vector.class);
                int[][] expected = {{1, 3, 3}, {2, 2, 4}, {3, 1, 3}};
                for (int r = 0; r < 3; r++) {
                    assertEquals(expected[r][0], keys.getInt(r));
                    assertEquals(expected[r][1], counts.getLong(r));
                    assertEquals(expected[r][2], sums.getInt(r));
                }
            }
            assertNull(op.flush(), "a flush resets");
        }
        assertEquals(0, GatunLibrary.stats().liveHandles());
    }

    @Test
    void flinkRowsCarryOneRowPerGroup() {
        try (NativeOperator op = aggregate(OutputFormat.FLINK_ROWS)) {
            assertEquals(Schema.of(Field.notNull(NativeOperator.FLINK_ROW_COLUMN, ArrowType.BINARY)), op.outputSchema());
            assertNull(op.process(rows(7, 7), null));
            try (RecordBatch out = op.flush()) {
                assertEquals(1, out.rowCount());
                byte[] row = out.column(0, VarBinaryVector.class).getBytes(0);
                assertEquals(8 + 3 * 8, row.length);
                assertEquals(7, row[8]);
                assertEquals(2, row[16]);
                assertEquals(14, row[24]);
            }
        }
    }

    @Test
    void aCalcHoldsNoBytes() {
        try (NativeOperator calc = NativeOperator.create(NativeOperator.Kind.CALC,
                io.substrait.proto.ExtendedExpression.newBuilder().setBaseSchema(NamedStruct.newBuilder()
                        .addNames("x").setStruct(Type.Struct.newBuilder().addTypes(Type.newBuilder().setI32(
                                Type.I32.newBuilder().setNullability(Type.Nullability.NULLABILITY_NULLABLE)))
                                .setNullability(Type.Nullability.NULLABILITY_REQUIRED))).build().toByteArray(),
                INPUT, new Schema(List.of(), java.util.Map.of()), OutputFormat.ARROW, NativeAllocator.root())) {
            try (RecordBatch out = calc.process(rows(1, 2), null)) {
                assertEquals(2, out.rowCount());
            }
            assertEquals(0, calc.heldBytes());
        }
    }

    @Test
    void aPlanOfAnotherPhaseIsRefusedWithRustsReason() {
        NativeException e = assertThrows(NativePlanException.class, () -> NativeOperator.create(LOCAL_AGGREGATE,
                plan(AggregationPhase.AGGREGATION_PHASE_INITIAL_TO_RESULT), INPUT, OUTPUT, OutputFormat.ARROW,
                NativeAllocator.root()));
        assertTrue(e.getMessage().contains("measure 0 (count:)"), e.getMessage());
        assertTrue(e.getMessage().contains("AGGREGATION_PHASE_INITIAL_TO_INTERMEDIATE"), e.getMessage());
        assertEquals(0, GatunLibrary.stats().liveHandles());
    }
}
