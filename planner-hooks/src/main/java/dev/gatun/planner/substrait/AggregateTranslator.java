package dev.gatun.planner.substrait;

import static dev.gatun.planner.substrait.Kinds.sameArrow;

import dev.gatun.planner.substrait.RexTranslator.Typed;
import dev.gatun.transpose.types.TypeMapping;
import com.google.protobuf.Any;
import com.google.protobuf.UInt64Value;
import io.substrait.proto.AdvancedExtension;
import io.substrait.proto.AggregateFunction;
import io.substrait.proto.AggregateRel;
import io.substrait.proto.AggregationPhase;
import io.substrait.proto.Expression;
import io.substrait.proto.FilterRel;
import io.substrait.proto.FunctionArgument;
import io.substrait.proto.Plan;
import io.substrait.proto.PlanRel;
import io.substrait.proto.ProjectRel;
import io.substrait.proto.ReadRel;
import io.substrait.proto.Rel;
import io.substrait.proto.RelCommon;
import io.substrait.proto.RelRoot;
import java.util.List;
import org.apache.calcite.rex.RexNode;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * The local (pre-shuffle) phase of a group aggregate, with the Calc below it, as a Substrait
 * {@code Plan} (native/src/ops/local_aggregate/plan.rs):
 * {@code RelRoot(AggregateRel(ProjectRel(FilterRel?(ReadRel))))}. The ReadRel's base schema is the
 * island's pruned input (as for a Calc); the FilterRel holds the Calc's condition (after the NULL
 * check of an absorbed WatermarkAssigner's rowtime, when the island has one); the ProjectRel
 * emits the aggregate's input columns (keys, arguments, FILTER columns) computed by
 * {@link RexTranslator}; every measure is a standard aggregate function ({@code count}, {@code sum},
 * {@code avg}, {@code min}, {@code max}) in phase {@code INITIAL_TO_INTERMEDIATE}, Flink's local phase.
 * The aggregate carries at most one optimization, a {@code google.protobuf.UInt64Value}: in streaming
 * Flink's bundle size (the native kind emits its groups each time that many rows reached it, past the
 * Calc's filter); in batch the group limit, under the type URL {@value #GROUP_LIMIT_TYPE_URL} (the
 * native kind emits its groups once an input batch leaves that many). A local window aggregate has
 * neither; its window ({@link WindowSlicing}) is the aggregate's enhancement. A one-phase window
 * aggregate has the same shape without FilterRel, its measures in phase {@code INITIAL_TO_RESULT}
 * ({@link #translateOnePhase}); the global phase of a two-phase one reads the local phase's rows
 * ({@link #translateGlobal}).
 */
public final class AggregateTranslator {
    /** The type URL of the group-limit optimization (native/src/ops/local_aggregate/plan.rs). */
    public static final String GROUP_LIMIT_TYPE_URL = "type.gatun.dev/gatun.aggregate.GroupLimit";

    private final RexTranslator rex;

    /**
     * One aggregate call: a Substrait function name and indexes into the aggregate's input
     * columns (-1 for none: COUNT(*) has no argument, a call without FILTER no filter column).
     */
    public record Measure(String function, int argument, int filter) {}

    /**
     * One call of a global (or one-phase) window aggregate: a Substrait function name and its
     * arguments, indexes into the aggregate's input row (the local phase's accumulator columns).
     */
    public record ResultMeasure(String function, List<Integer> arguments) {
        public ResultMeasure {
            arguments = List.copyOf(arguments);
        }
    }

    public AggregateTranslator(RowType inputType, List<int[]> readPaths, TypeMapping types,
                               List<String> disabledFunctions) {
        this.rex = new RexTranslator(inputType, readPaths, types, disabledFunctions);
    }

    /**
     * The global phase of a two-phase window aggregate: {@code RelRoot(AggregateRel(ReadRel))} over
     * the local phase's rows (its keys first), every measure in phase {@code INTERMEDIATE_TO_RESULT}
     * over its accumulator columns, the window ({@code $slice_end} as its time column, its properties
     * and Flink's COUNT(*)) as the aggregate's enhancement.
     *
     * @param inputType the local phase's row type; the ReadRel reads all of it
     * @param outputType the stock global window aggregate's row type
     */
    public byte[] translateGlobal(RowType inputType, int keyCount, List<ResultMeasure> measures,
                                  RowType outputType, WindowSlicing window) {
        Rel input = Rel.newBuilder().setRead(ReadRel.newBuilder().setBaseSchema(rex.baseSchema())
                .setNamedTable(ReadRel.NamedTable.newBuilder().addNames("input"))).build();
        AggregateRel.Builder aggregate = AggregateRel.newBuilder()
                .setInput(input)
                .setAdvancedExtension(AdvancedExtension.newBuilder().setEnhancement(window.toAny()));
        if (keyCount > 0) {
            AggregateRel.Grouping.Builder grouping = AggregateRel.Grouping.newBuilder();
            for (int k = 0; k < keyCount; k++) {
                aggregate.addGroupingExpressions(RexTranslator.fieldRef(k));
                grouping.addExpressionReferences(k);
            }
            aggregate.addGroupings(grouping);
        }
        for (ResultMeasure m : measures) {
            AggregateFunction.Builder f = AggregateFunction.newBuilder()
                    .setPhase(AggregationPhase.AGGREGATION_PHASE_INTERMEDIATE_TO_RESULT)
                    .setInvocation(AggregateFunction.AggregationInvocation.AGGREGATION_INVOCATION_ALL);
            StringBuilder signature = new StringBuilder();
            for (int a : m.arguments()) {
                f.addArguments(FunctionArgument.newBuilder().setValue(RexTranslator.fieldRef(a)));
                signature.append(signature.isEmpty() ? "" : "_").append(SubstraitTypes.signatureName(inputType.getTypeAt(a)));
            }
            f.setFunctionReference(rex.anchor(m.function() + ":" + signature));
            aggregate.addMeasures(AggregateRel.Measure.newBuilder().setMeasure(f));
        }
        return Plan.newBuilder()
                .addAllExtensions(rex.extensions())
                .addRelations(PlanRel.newBuilder().setRoot(RelRoot.newBuilder()
                        .setInput(Rel.newBuilder().setAggregate(aggregate))
                        .addAllNames(outputType.getFieldNames())))
                .build()
                .toByteArray();
    }

    /**
     * {@code plan} (a window aggregate's, from {@link #translateGlobal} or {@link #translateOnePhase})
     * emitting output column {@code j} as its column {@code mapping[j]}: the projection-only Calc
     * above it, absorbed into its exit. The root's names stay the aggregate's own.
     */
    public static byte[] withEmit(byte[] plan, int[] mapping) {
        Plan decoded;
        try {
            decoded = Plan.parseFrom(plan);
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new IllegalArgumentException("not a Substrait plan: " + e.getMessage(), e);
        }
        RelRoot root = decoded.getRelations(0).getRoot();
        RelCommon.Emit.Builder emit = RelCommon.Emit.newBuilder();
        for (int i : mapping) {
            emit.addOutputMapping(i);
        }
        AggregateRel aggregate = root.getInput().getAggregate().toBuilder()
                .setCommon(RelCommon.newBuilder().setEmit(emit)).build();
        RelRoot projected = root.toBuilder().setInput(Rel.newBuilder().setAggregate(aggregate)).build();
        return decoded.toBuilder().setRelations(0, PlanRel.newBuilder().setRoot(projected)).build().toByteArray();
    }

    /**
     * @param columns the aggregate's input columns over the island's input rows
     * @param condition the Calc's filter, or null
     * @param keys the group keys, indexes into {@code columns}
     * @param outputType the stock local aggregate's row type (keys, then the accumulators)
     * @param bundleRows streaming: {@code table.exec.mini-batch.size}, rows per bundle of the local
     *     phase; 0 in batch and for a window aggregate
     * @param groupLimit batch: the groups the local phase holds before it emits them; 0 otherwise
     * @param rowtime the rowtime of a WatermarkAssigner the island absorbed, whose NULL check it owes
     *     on every row (it leads the filter), or null
     * @param window null, or for a local window aggregate its window: the aggregate's enhancement; the
     *     output type then ends with Flink's {@code $slice_end}
     */
    public byte[] translate(List<RexNode> columns, RexNode condition, int[] keys, List<Measure> measures,
                            RowType outputType, long bundleRows, long groupLimit, RexNode rowtime,
                            WindowSlicing window) {
        return translate(columns, condition, keys, measures, outputType, bundleRows, groupLimit, rowtime, window,
                null, 0);
    }

    /**
     * As above; for a local window aggregate that absorbed the row-time mini-batch assigner
     * ({@code miniBatchMillis}) and the WatermarkAssigner under it, also that assigner's
     * {@code watermark} expression over the island's input rows (null and 0 for none).
     */
    public byte[] translate(List<RexNode> columns, RexNode condition, int[] keys, List<Measure> measures,
                            RowType outputType, long bundleRows, long groupLimit, RexNode rowtime,
                            WindowSlicing window, RexNode watermark, long miniBatchMillis) {
        if ((watermark != null) != (miniBatchMillis > 0) || (watermark != null && window == null)) {
            throw new IllegalArgumentException("a watermark expression comes with a window and a mini-batch interval");
        }
        if ((bundleRows > 0 ? 1 : 0) + (groupLimit > 0 ? 1 : 0) + (window != null ? 1 : 0) != 1) {
            throw new IllegalArgumentException("a local aggregate has a bundle (streaming), a group limit (batch)"
                    + " or a window: " + bundleRows + ", " + groupLimit + ", " + window);
        }
        return aggregate(columns, condition, keys, measures, outputType, bundleRows, groupLimit, rowtime, window,
                watermark, miniBatchMillis, AggregationPhase.AGGREGATION_PHASE_INITIAL_TO_INTERMEDIATE);
    }

    /**
     * A one-phase window aggregate: the plan of {@link #translate} over the aggregate's input rows (no
     * Calc, no bundle), every measure in phase {@code INITIAL_TO_RESULT}, the window (the rowtime as its
     * time column, its properties and Flink's COUNT(*)) as the aggregate's enhancement.
     *
     * @param columns the aggregate's input columns that cross (keys, arguments, FILTER columns, rowtime)
     * @param outputType the stock window aggregate's row type (keys, results, window properties)
     */
    public byte[] translateOnePhase(List<RexNode> columns, int[] keys, List<Measure> measures, RowType outputType,
                                    WindowSlicing window) {
        return aggregate(columns, null, keys, measures, outputType, 0, 0, null, window, null, 0,
                AggregationPhase.AGGREGATION_PHASE_INITIAL_TO_RESULT);
    }

    private byte[] aggregate(List<RexNode> columns, RexNode condition, int[] keys, List<Measure> measures,
                             RowType outputType, long bundleRows, long groupLimit, RexNode rowtime,
                             WindowSlicing window, RexNode watermark, long miniBatchMillis,
                             AggregationPhase phase) {
        ProjectRel.Builder project = ProjectRel.newBuilder();
        int base = rex.baseSchema().getStruct().getTypesCount();
        Typed[] typed = new Typed[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            typed[i] = rex.translate(columns.get(i));
            project.addExpressions(typed[i].expr());
        }
        for (int k = 0; k < keys.length; k++) {
            LogicalType want = outputType.getTypeAt(k);
            if (!sameArrow(typed[keys[k]].type(), want)) {
                throw new NotAdmittedException("group key " + outputType.getFieldNames().get(k) + " is "
                        + typed[keys[k]].type().asSummaryString() + " but the local aggregate outputs "
                        + want.asSummaryString());
            }
        }
        RelCommon.Emit.Builder emit = RelCommon.Emit.newBuilder();
        for (int i = 0; i < columns.size(); i++) {
            emit.addOutputMapping(base + i);
        }
        Rel input = Rel.newBuilder().setRead(ReadRel.newBuilder().setBaseSchema(rex.baseSchema())
                .setNamedTable(ReadRel.NamedTable.newBuilder().addNames("input"))).build();
        if (condition != null || rowtime != null) {
            Typed c = rowtime != null ? rex.rowtimeChecked(rowtime, condition) : rex.translate(condition);
            RexTranslator.requireBoolean(c, "the filter");
            input = Rel.newBuilder().setFilter(FilterRel.newBuilder().setInput(input).setCondition(c.expr())).build();
        }
        project.setInput(input).setCommon(RelCommon.newBuilder().setEmit(emit));
        AdvancedExtension.Builder advanced = AdvancedExtension.newBuilder();
        if (bundleRows > 0) {
            advanced.addOptimization(Any.pack(UInt64Value.of(bundleRows)));
        }
        if (groupLimit > 0) {
            advanced.addOptimization(Any.newBuilder().setTypeUrl(GROUP_LIMIT_TYPE_URL)
                    .setValue(UInt64Value.of(groupLimit).toByteString()).build());
        }
        if (window != null) {
            LogicalType time = typed[window.timeColumn()].type();
            if (!(time instanceof TimestampType || time instanceof LocalZonedTimestampType)) {
                throw new NotAdmittedException("the window's time attribute is " + time.asSummaryString()
                        + ", not a timestamp");
            }
            advanced.setEnhancement(watermark == null ? window.toAny()
                    : window.toAny(miniBatchMillis, rex.millisecondTimestamp(watermark, "the watermark").expr()));
        }
        AggregateRel.Builder aggregate = AggregateRel.newBuilder()
                .setInput(Rel.newBuilder().setProject(project))
                .setAdvancedExtension(advanced);
        if (keys.length > 0) {
            AggregateRel.Grouping.Builder grouping = AggregateRel.Grouping.newBuilder();
            for (int k = 0; k < keys.length; k++) {
                aggregate.addGroupingExpressions(RexTranslator.fieldRef(keys[k]));
                grouping.addExpressionReferences(k);
            }
            aggregate.addGroupings(grouping);
        }
        for (Measure m : measures) {
            AggregateFunction.Builder f = AggregateFunction.newBuilder()
                    .setPhase(phase)
                    .setInvocation(AggregateFunction.AggregationInvocation.AGGREGATION_INVOCATION_ALL);
            String signature = "";
            if (m.argument >= 0) {
                f.addArguments(FunctionArgument.newBuilder().setValue(RexTranslator.fieldRef(m.argument)));
                signature = SubstraitTypes.signatureName(typed[m.argument].type());
            }
            f.setFunctionReference(rex.anchor(m.function + ":" + signature));
            AggregateRel.Measure.Builder measure = AggregateRel.Measure.newBuilder().setMeasure(f);
            if (m.filter >= 0) {
                RexTranslator.requireBoolean(typed[m.filter], "the FILTER of " + m.function);
                measure.setFilter(RexTranslator.fieldRef(m.filter));
            }
            aggregate.addMeasures(measure);
        }
        return Plan.newBuilder()
                .addAllExtensions(rex.extensions())
                .addRelations(PlanRel.newBuilder().setRoot(RelRoot.newBuilder()
                        .setInput(Rel.newBuilder().setAggregate(aggregate))
                        .addAllNames(outputType.getFieldNames())))
                .build()
                .toByteArray();
    }
}
