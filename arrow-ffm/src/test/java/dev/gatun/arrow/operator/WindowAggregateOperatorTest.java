package dev.gatun.arrow.operator;

import static dev.gatun.arrow.operator.NativeOperator.Kind.WINDOW_AGGREGATE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import dev.gatun.arrow.batch.BatchState;
import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.Schema;
import dev.gatun.arrow.types.TimeUnit;
import dev.gatun.arrow.vector.Int32Vector;
import dev.gatun.arrow.vector.Int64Vector;
import dev.gatun.ffm.GatunLibrary;
import dev.gatun.ffm.NativeExecutionException;
import dev.gatun.ffm.NativeInvalidArgumentException;
import io.substrait.proto.AdvancedExtension;
import io.substrait.proto.AggregateFunction;
import io.substrait.proto.AggregateRel;
import io.substrait.proto.AggregationPhase;
import io.substrait.proto.Expression;
import io.substrait.proto.NamedStruct;
import io.substrait.proto.Plan;
import io.substrait.proto.PlanRel;
import io.substrait.proto.ReadRel;
import io.substrait.proto.Rel;
import io.substrait.proto.RelRoot;
import io.substrait.proto.SimpleExtensionDeclaration;
import io.substrait.proto.Type;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The window-aggregate kind through the Java owner: process folds into native state, advance fires
 * windows, snapshot / restore per key group (into another operator, a failing sink, a mismatched
 * section), the state bound, the state statistics and the calls on other kinds. The window
 * semantics are covered by the Rust tests and, through Flink, by planner-hooks.
 */
@ExtendWith(LeakCheckExtension.class)
class WindowAggregateOperatorTest {
    private static final ArrowType TS = new ArrowType.Timestamp(TimeUnit.MILLISECOND, null);
    private static final Schema INPUT = Schema.of(Field.nullable("x", ArrowType.INT32), Field.notNull("ts", TS));
    /** GROUP BY x, TUMBLE(ts): x, COUNT(*), window_end. */
    private static final Schema OUTPUT = Schema.of(Field.nullable("x", ArrowType.INT32),
            Field.notNull("cnt", ArrowType.INT64), Field.notNull("window_end", TS));

    private static Expression field(int i) {
        return Expression.newBuilder().setSelection(Expression.FieldReference.newBuilder()
                .setDirectReference(Expression.ReferenceSegment.newBuilder()
                        .setStructField(Expression.ReferenceSegment.StructField.newBuilder().setField(i)))
                .setRootReference(Expression.FieldReference.RootReference.getDefaultInstance())).build();
    }

    /** The WindowSlicing message: TUMBLE of {@code size} ms over column 1, emitting window_end,
     *  with measure 0 the COUNT(*) that tells empty windows. */
    private static byte[] windowSlicing(long size) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        out.writeUInt32(1, 1);
        out.writeUInt32(2, 1);
        out.writeInt64(3, size);
        out.writeUInt32(10, 2);
        out.writeInt32(11, 1);
        out.flush();
        return bytes.toByteArray();
    }

    /** AggregateRel(GROUP BY x; COUNT(*)) in one phase over a ReadRel of {@link #INPUT}. */
    private static byte[] plan(long size) throws IOException {
        Type i32 = Type.newBuilder().setI32(Type.I32.newBuilder()
                .setNullability(Type.Nullability.NULLABILITY_NULLABLE)).build();
        Type ts = Type.newBuilder().setPrecisionTimestamp(Type.PrecisionTimestamp.newBuilder().setPrecision(3)
                .setNullability(Type.Nullability.NULLABILITY_REQUIRED)).build();
        ReadRel read = ReadRel.newBuilder()
                .setBaseSchema(NamedStruct.newBuilder().addNames("x").addNames("ts").setStruct(Type.Struct.newBuilder()
                        .addTypes(i32).addTypes(ts).setNullability(Type.Nullability.NULLABILITY_REQUIRED)))
                .setNamedTable(ReadRel.NamedTable.newBuilder().addNames("input"))
                .build();
        AggregateRel aggregate = AggregateRel.newBuilder()
                .setInput(Rel.newBuilder().setRead(read))
                .addGroupingExpressions(field(0))
                .addGroupings(AggregateRel.Grouping.newBuilder().addExpressionReferences(0))
                .addMeasures(AggregateRel.Measure.newBuilder().setMeasure(AggregateFunction.newBuilder()
                        .setFunctionReference(1).setPhase(AggregationPhase.AGGREGATION_PHASE_INITIAL_TO_RESULT)))
                .setAdvancedExtension(AdvancedExtension.newBuilder().setEnhancement(Any.newBuilder()
                        .setTypeUrl("type.gatun.dev/gatun.WindowSlicing")
                        .setValue(ByteString.copyFrom(windowSlicing(size)))))
                .build();
        return Plan.newBuilder()
                .addExtensions(SimpleExtensionDeclaration.newBuilder().setExtensionFunction(
                        SimpleExtensionDeclaration.ExtensionFunction.newBuilder().setFunctionAnchor(1)
                                .setName("count:")))
                .addRelations(PlanRel.newBuilder().setRoot(RelRoot.newBuilder()
                        .setInput(Rel.newBuilder().setAggregate(aggregate))))
                .build()
                .toByteArray();
    }

    private static NativeOperator window(long size) throws IOException {
        return NativeOperator.create(WINDOW_AGGREGATE, plan(size), INPUT, OUTPUT, OutputFormat.ARROW,
                NativeAllocator.root());
    }

    /** Rows (x, ts) given as pairs. */
    private static RecordBatch rows(long... pairs) {
        int n = pairs.length / 2;
        RecordBatch batch = RecordBatch.allocate(INPUT, n);
        for (int r = 0; r < n; r++) {
            batch.column(0, Int32Vector.class).setInt(r, (int) pairs[2 * r]);
            batch.column(1, Int64Vector.class).setLong(r, pairs[2 * r + 1]);
        }
        batch.seal(n);
        return batch;
    }

    /** The fired rows as "x:count@end", sorted. */
    private static List<String> fired(RecordBatch out) {
        List<String> rows = new ArrayList<>();
        if (out == null) {
            return rows;
        }
        try (out) {
            for (int r = 0; r < out.rowCount(); r++) {
                rows.add(out.column(0, Int32Vector.class).getInt(r) + ":" + out.column(1, Int64Vector.class).getLong(r)
                        + "@" + out.column(2, Int64Vector.class).getLong(r));
            }
        }
        rows.sort(null);
        return rows;
    }

    @Test
    void processFoldsIntoStateAndAdvanceFiresTheWindows() throws IOException {
        try (NativeOperator op = window(1_000)) {
            assertEquals(WINDOW_AGGREGATE, op.kind());
            assertEquals(OUTPUT, op.outputSchema());
            assertEquals(new NativeOperator.StateStats(0, 0, 0, 0, Long.MIN_VALUE), op.stateStats());
            RecordBatch first = rows(1, 100, 2, 200, 1, 1_500);
            assertNull(op.process(first, null));
            assertEquals(BatchState.RELEASED, first.state());
            NativeOperator.StateStats stats = op.stateStats();
            assertEquals(2, stats.keys());
            assertEquals(3, stats.slices());
            assertTrue(stats.bytes() > 0 && op.heldBytes() == stats.bytes(), stats + " vs " + op.heldBytes());
            assertNull(op.flush(), "a window aggregate keeps its state on flush");
            assertEquals(List.of("1:1@1000", "2:1@1000"), fired(op.advance(999)));
            assertEquals(List.of("1:1@2000"), fired(op.advance(Long.MAX_VALUE)));
            assertEquals(new NativeOperator.StateStats(0, 0, 0, 0, Long.MAX_VALUE), op.stateStats());
        }
        assertEquals(0, GatunLibrary.stats().liveHandles());
    }

    /** The sections of {@code op}'s snapshot, copied out of the sink. */
    private static TreeMap<Integer, byte[]> snapshot(NativeOperator op, int maxParallelism) throws IOException {
        TreeMap<Integer, byte[]> sections = new TreeMap<>();
        op.snapshot(maxParallelism, (group, section) -> {
            assertTrue(section.byteSize() > 0);
            byte[] copy = section.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
            assertNull(sections.put(group, copy), "one call per key group");
        });
        return sections;
    }

    @Test
    void aSnapshotRestoresIntoAnotherOperatorWithoutLosingOrRepeatingWindows() throws IOException {
        TreeMap<Integer, byte[]> sections;
        List<String> expected;
        try (NativeOperator op = window(1_000)) {
            op.process(rows(1, 100, 2, 200, 3, 1_200, 4, 2_500), null);
            assertEquals(List.of("1:1@1000", "2:1@1000"), fired(op.advance(999)));
            sections = snapshot(op, 128);
            assertEquals(2, sections.size(), "keys 3 and 4 hold state");
            assertTrue(sections.keySet().stream().allMatch(g -> g >= 0 && g < 128));
            expected = fired(op.advance(Long.MAX_VALUE));
        }
        try (NativeOperator restored = window(1_000)) {
            for (byte[] section : sections.values()) {
                restored.restore(MemorySegment.ofArray(section));
            }
            assertEquals(2, restored.stateStats().keys());
            assertNull(restored.advance(999), "fired windows stay fired");
            assertEquals(expected, fired(restored.advance(Long.MAX_VALUE)));
        }
    }

    @Test
    void lateRowsAreCountedAndARestoredProgressDropsThemWithoutAnySection() throws IOException {
        try (NativeOperator op = window(1_000)) {
            op.process(rows(1, 100), null);
            assertEquals(List.of("1:1@1000"), fired(op.advance(999)));
            assertNull(op.process(rows(5, 500, 6, 1_500, 7, 999), null));
            NativeOperator.StateStats stats = op.stateStats();
            assertEquals(2, stats.lateRows(), "the rows of the fired window: " + stats);
            assertEquals(999, stats.progress());
            assertEquals(1, stats.keys(), "key 6's row in window 2000 is kept");
        }
        try (NativeOperator restored = window(1_000)) {
            restored.restoreProgress(999);
            assertEquals(new NativeOperator.StateStats(0, 0, 0, 0, 999), restored.stateStats());
            restored.process(rows(5, 500), null);
            assertEquals(new NativeOperator.StateStats(0, 0, 0, 1, 999), restored.stateStats());
            assertNull(restored.advance(Long.MAX_VALUE), "the late row made no window");
        }
    }

    @Test
    void aFailingSinkLeaksNothing() throws IOException {
        try (NativeOperator op = window(1_000)) {
            op.process(rows(1, 100, 2, 200), null);
            IOException e = assertThrows(IOException.class,
                    () -> op.snapshot(128, (group, section) -> { throw new IOException("disk full"); }));
            assertEquals("disk full", e.getMessage());
            assertEquals(2, op.stateStats().keys(), "the state is unchanged");
        }
    }

    @Test
    void aSectionOfAnotherLayoutIsRefusedNamingBoth() throws IOException {
        TreeMap<Integer, byte[]> sections;
        try (NativeOperator op = window(1_000)) {
            op.process(rows(1, 100), null);
            sections = snapshot(op, 16);
        }
        try (NativeOperator other = window(2_000)) {
            NativeInvalidArgumentException e = assertThrows(NativeInvalidArgumentException.class,
                    () -> other.restore(MemorySegment.ofArray(sections.firstEntry().getValue())));
            assertTrue(e.getMessage().contains("size 1000 ms") && e.getMessage().contains("size 2000 ms"),
                    e.getMessage());
        }
        try (NativeOperator op = window(1_000)) {
            NativeInvalidArgumentException e = assertThrows(NativeInvalidArgumentException.class,
                    () -> op.restore(MemorySegment.ofArray(new byte[] {1, 2, 3})));
            assertTrue(e.getMessage().contains("truncated"), e.getMessage());
        }
    }

    @Test
    void theStateBoundFailsNamingTheKey() throws IOException {
        try (NativeOperator op = window(1_000)) {
            op.limitState(1);
            NativeExecutionException e = assertThrows(NativeExecutionException.class,
                    () -> op.process(rows(42, 100), null));
            assertTrue(e.getMessage().contains("x=42") && e.getMessage().contains("bound of 1 bytes"), e.getMessage());
            assertThrows(NativeInvalidArgumentException.class, () -> op.limitState(-1));
        }
    }

    @Test
    void stateCallsOnAKindWithoutStateAreRefused() {
        Schema in = Schema.of(Field.nullable("x", ArrowType.INT32));
        try (NativeOperator calc = NativeOperator.create(NativeOperator.Kind.CALC,
                io.substrait.proto.ExtendedExpression.newBuilder().setBaseSchema(NamedStruct.newBuilder()
                        .addNames("x").setStruct(Type.Struct.newBuilder().addTypes(Type.newBuilder().setI32(
                                Type.I32.newBuilder().setNullability(Type.Nullability.NULLABILITY_NULLABLE)))
                                .setNullability(Type.Nullability.NULLABILITY_REQUIRED))).build().toByteArray(),
                in, new Schema(List.of(), java.util.Map.of()), OutputFormat.ARROW, NativeAllocator.root())) {
            assertEquals(new NativeOperator.StateStats(0, 0, 0, 0, Long.MIN_VALUE), calc.stateStats());
            NativeInvalidArgumentException e = assertThrows(NativeInvalidArgumentException.class,
                    () -> calc.snapshot(128, (g, s) -> { }));
            assertTrue(e.getMessage().contains("GATUN_OPERATOR_CALC"), e.getMessage());
            assertThrows(NativeInvalidArgumentException.class,
                    () -> calc.restore(MemorySegment.ofArray(new byte[] {1})));
            assertThrows(NativeInvalidArgumentException.class, () -> calc.limitState(1));
            assertThrows(NativeInvalidArgumentException.class, () -> calc.restoreProgress(1));
        }
    }

    @Test
    void aClosedOperatorRefusesStateCalls() throws IOException {
        NativeOperator op = window(1_000);
        op.close();
        assertThrows(IllegalStateException.class, op::stateStats);
        assertThrows(IllegalStateException.class, () -> op.snapshot(1, (g, s) -> { }));
        assertThrows(IllegalStateException.class, () -> op.restore(MemorySegment.ofArray(new byte[1])));
        assertThrows(IllegalStateException.class, () -> op.limitState(1));
        assertThrows(IllegalStateException.class, () -> op.restoreProgress(1));
        assertArrayEquals(new long[] {0}, new long[] {GatunLibrary.stats().liveHandles()});
    }
}
