package dev.gatun.planner.rewrite;

import dev.gatun.arrow.operator.NativeOperator;
import dev.gatun.arrow.operator.OutputFormat;
import dev.gatun.ffm.NativeException;
import dev.gatun.planner.GatunOptions;
import dev.gatun.planner.nodes.NativePlanCheck;
import dev.gatun.planner.runtime.NativeCalcSpec;
import dev.gatun.planner.substrait.AggregateTranslator;
import dev.gatun.planner.substrait.AggregateTranslator.Measure;
import dev.gatun.planner.substrait.NotAdmittedException;
import dev.gatun.planner.substrait.ReadPaths;
import dev.gatun.transpose.exit.BinaryRowExit;
import dev.gatun.transpose.types.TypeMapping;
import dev.gatun.transpose.types.TypeMappingException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexUtil;
import org.apache.flink.table.api.TableConfig;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.PartialFinalType;
import org.apache.flink.table.planner.plan.nodes.FlinkRelNode;
import org.apache.flink.table.planner.plan.nodes.common.CommonCalc;
import org.apache.flink.table.planner.plan.nodes.physical.batch.BatchPhysicalCalc;
import org.apache.flink.table.planner.plan.nodes.physical.batch.BatchPhysicalLocalHashAggregate;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalCalc;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalLocalGroupAggregate;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalRel;
import org.apache.flink.table.planner.plan.utils.ChangelogPlanUtils;
import org.apache.flink.table.planner.utils.JavaScalaConversionUtil;
import org.apache.flink.table.types.logical.RowType;

/**
 * Decides whether the local phase of a two-phase group aggregate (with the Calc directly below it,
 * if any) runs as one native island, and if not, why: insert-only input; COUNT(*), COUNT(x), SUM,
 * AVG, MIN, MAX, each optionally with FILTER, no DISTINCT; every type maps to Arrow; the Calc and
 * the arguments translate; Rust compiles the plan (it checks the argument types the kernel admits
 * and that its output row type is the stock local row type).
 *
 * <p>Both modes share the decision: streaming's {@link StreamPhysicalLocalGroupAggregate} (mini-batch
 * on; the island emits per bundle) and batch's {@link BatchPhysicalLocalHashAggregate} (the island
 * emits when it holds {@link GatunOptions#BATCH_AGGREGATE_GROUP_LIMIT} groups, and at the end of
 * input). The batch local row type is the streaming one with the auxiliary grouping columns after the
 * keys (same declarative functions, same buffers); those columns are functionally dependent on the
 * keys, so the island groups by keys and auxiliary columns together.
 */
public final class LocalAggregateAdmission {
    /** Why a batch local sort aggregate stays on Flink. */
    static final String SORT_AGGREGATE_REASON = "a local sort aggregate is not admitted natively (only the local"
            + " hash aggregate is; Flink sorts where a call's buffer is not fixed-length, e.g. MIN/MAX of strings,"
            + " or where table.exec.disabled-operators disables HashAgg)";

    private final TableConfig config;
    private final TypeMapping types;

    public LocalAggregateAdmission(TableConfig config) {
        this.config = config;
        this.types = new TypeMapping(config.get(GatunOptions.NANOSECOND_TIMESTAMPS));
    }

    /**
     * What the island is made of, in either mode.
     *
     * @param aggregate the local aggregate node
     * @param calc the Calc directly below it, or null
     * @param keys the grouping columns of the aggregate's input, then the auxiliary ones (batch)
     * @param calls the aggregate calls
     * @param bundleRows streaming: the bundle; 0 in batch
     * @param groupLimit batch: the groups held before they are emitted; 0 in streaming
     */
    private record Shape(RelNode aggregate, CommonCalc calc, int[] keys, List<AggregateCall> calls, long bundleRows,
                         long groupLimit) {
        RelNode input() {
            return calc == null ? aggregate.getInput(0) : calc.getInput();
        }
    }

    /** The island's name in EXPLAIN: the local aggregate, and the Calc it absorbs. */
    static String name(FlinkRelNode local, CommonCalc calc) {
        return local.getRelDetailedDescription()
                + (calc == null ? "" : " fused with " + calc.getRelDetailedDescription());
    }

    /** @param calc the Calc directly below {@code local}, or null */
    public CalcDecision decide(StreamPhysicalLocalGroupAggregate local, StreamPhysicalCalc calc) {
        return decide(local, calc, () -> {
            RelNode input = calc == null ? local.getInput() : calc.getInput();
            if (!(input instanceof StreamPhysicalRel rel) || !ChangelogPlanUtils.isInsertOnly(rel)) {
                throw new NotAdmittedException("the local aggregate's input is a changelog; only insert-only input"
                        + " is admitted natively");
            }
            if (local.partialFinalType() != PartialFinalType.NONE) {
                throw new NotAdmittedException("a split distinct aggregate (" + local.partialFinalType()
                        + " phase) is not admitted natively");
            }
            long bundle = config.get(ExecutionConfigOptions.TABLE_EXEC_MINIBATCH_SIZE);
            if (bundle <= 0) {
                throw new NotAdmittedException(ExecutionConfigOptions.TABLE_EXEC_MINIBATCH_SIZE.key() + " is "
                        + bundle);
            }
            return new Shape(local, calc, local.grouping(), JavaScalaConversionUtil.toJava(local.aggCalls()), bundle,
                    0);
        });
    }

    /** @param calc the Calc directly below {@code local}, or null */
    public CalcDecision decide(BatchPhysicalLocalHashAggregate local, BatchPhysicalCalc calc) {
        return decide(local, calc, () -> {
            long limit = config.get(GatunOptions.BATCH_AGGREGATE_GROUP_LIMIT);
            if (limit <= 0) {
                throw new NotAdmittedException(GatunOptions.BATCH_AGGREGATE_GROUP_LIMIT.key() + " is " + limit);
            }
            int[] grouping = local.grouping();
            int[] aux = local.auxGrouping();
            int[] keys = new int[grouping.length + aux.length];
            System.arraycopy(grouping, 0, keys, 0, grouping.length);
            System.arraycopy(aux, 0, keys, grouping.length, aux.length);
            return new Shape(local, calc, keys, JavaScalaConversionUtil.toJava(local.getAggCallList()), 0, limit);
        });
    }

    private CalcDecision decide(FlinkRelNode local, CommonCalc calc, Supplier<Shape> shape) {
        String name = name(local, calc);
        try {
            return CalcDecision.nativeCalc(name, admit(shape.get()));
        } catch (NotAdmittedException e) {
            return CalcDecision.stock(name, e.getMessage());
        } catch (RuntimeException e) {
            // a translator bug must cost the query its native island, never the query itself
            return CalcDecision.stock(name, "Gatun could not translate this local aggregate (" + e + ")");
        }
    }

    private NativeCalcSpec admit(Shape shape) {
        RelNode input = shape.input();
        CommonCalc calc = shape.calc();
        RexBuilder rex = shape.aggregate().getCluster().getRexBuilder();
        List<RexNode> aggInput = new ArrayList<>();
        RexNode condition = null;
        if (calc == null) {
            for (int i = 0; i < input.getRowType().getFieldCount(); i++) {
                aggInput.add(rex.makeInputRef(input, i));
            }
        } else {
            RexProgram program = calc.getProgram();
            for (RexLocalRef p : program.getProjectList()) {
                aggInput.add(RexUtil.expandSearch(rex, null, program.expandLocalRef(p)));
            }
            if (program.getCondition() != null) {
                condition = RexUtil.expandSearch(rex, null, program.expandLocalRef(program.getCondition()));
            }
        }
        // only the columns the aggregate reads cross, renumbered in order of first use
        Map<Integer, Integer> used = new LinkedHashMap<>();
        int[] keys = shape.keys().clone();
        for (int k = 0; k < keys.length; k++) {
            keys[k] = used.computeIfAbsent(keys[k], c -> used.size());
        }
        List<Measure> measures = new ArrayList<>();
        for (AggregateCall call : shape.calls()) {
            String function = function(call);
            int argument = call.getArgList().isEmpty() ? -1
                    : used.computeIfAbsent(call.getArgList().get(0), c -> used.size());
            int filter = call.filterArg < 0 ? -1 : used.computeIfAbsent(call.filterArg, c -> used.size());
            measures.add(new Measure(function, argument, filter));
        }
        List<RexNode> columns = new ArrayList<>();
        used.keySet().forEach(c -> columns.add(aggInput.get(c)));
        List<RexNode> all = new ArrayList<>(columns);
        if (condition != null) {
            all.add(condition);
        }
        RowType inputType = FlinkTypeFactory.toLogicalRowType(input.getRowType());
        RowType outputType = FlinkTypeFactory.toLogicalRowType(shape.aggregate().getRowType());
        List<int[]> readPaths = ReadPaths.of(all);
        try {
            for (int[] path : readPaths) {
                types.field("input", CalcAdmission.leafType(inputType, path));
            }
            types.fields(outputType);
        } catch (TypeMappingException e) {
            throw new NotAdmittedException(e.getMessage());
        }
        byte[] plan = new AggregateTranslator(inputType, readPaths, types, config.get(GatunOptions.DISABLED_FUNCTIONS))
                .translate(columns, condition, keys, measures, outputType, shape.bundleRows(), shape.groupLimit());
        OutputFormat exit = BinaryRowExit.supports(outputType) ? OutputFormat.FLINK_ROWS : OutputFormat.ARROW;
        try {
            NativePlanCheck.compile(NativeOperator.Kind.LOCAL_AGGREGATE, plan, inputType, readPaths, outputType,
                    types, exit);
        } catch (NativeException e) {
            throw new NotAdmittedException("the native library refuses the plan: " + e.getMessage());
        }
        return new NativeCalcSpec(plan, inputType, readPaths, outputType, true, config.get(GatunOptions.BATCH_ROWS),
                0, types.nanosecondTimestamps(), exit == OutputFormat.FLINK_ROWS, false, shape.bundleRows(),
                shape.groupLimit());
    }

    /** The Substrait name of an admitted call, or why it stays on Flink. */
    private static String function(AggregateCall call) {
        if (call.isDistinct()) {
            throw new NotAdmittedException(call + ": DISTINCT aggregates are not admitted natively");
        }
        if (call.isApproximate() || !call.getCollation().getFieldCollations().isEmpty()) {
            throw new NotAdmittedException(call + " is not admitted natively");
        }
        int arity = call.getArgList().size();
        String name = switch (call.getAggregation().getKind()) {
            case COUNT -> arity <= 1 ? "count" : null;
            case SUM -> arity == 1 ? "sum" : null;
            case SUM0 -> arity == 1 ? "sum0" : null; // SUM and AVG after Calcite's reduction: 0 over no values
            case AVG -> arity == 1 ? "avg" : null;
            case MIN -> arity == 1 ? "min" : null;
            case MAX -> arity == 1 ? "max" : null;
            default -> null;
        };
        if (name == null) {
            throw new NotAdmittedException("aggregate function " + call.getAggregation().getName() + " with "
                    + arity + " arguments is not admitted natively (COUNT, SUM, $SUM0, AVG, MIN, MAX)");
        }
        return name;
    }
}
