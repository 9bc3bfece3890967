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
 */
public final class LocalAggregateAdmission {
    private final TableConfig config;
    private final TypeMapping types;

    public LocalAggregateAdmission(TableConfig config) {
        this.config = config;
        this.types = new TypeMapping(config.get(GatunOptions.NANOSECOND_TIMESTAMPS));
    }

    TableConfig config() {
        return config;
    }

    /** The island's name in EXPLAIN: the local aggregate, and the Calc it absorbs. */
    static String name(StreamPhysicalLocalGroupAggregate local, StreamPhysicalCalc calc) {
        return local.getRelDetailedDescription()
                + (calc == null ? "" : " fused with " + calc.getRelDetailedDescription());
    }

    /** @param calc the Calc directly below {@code local}, or null */
    public CalcDecision decide(StreamPhysicalLocalGroupAggregate local, StreamPhysicalCalc calc) {
        return decide(name(local, calc), () -> {
            RelNode input = calc == null ? local.getInput() : calc.getInput();
            RexBuilder rex = local.getCluster().getRexBuilder();
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
            return admit(local, input, aggInput, condition, null, 0);
        });
    }

    /** The island that also absorbs the mini-batch assigner (and what is under it) below {@code local}. */
    public CalcDecision decide(StreamPhysicalLocalGroupAggregate local, MiniBatchFusion fusion) {
        return decide(local.getRelDetailedDescription() + fusion.description(), () -> admit(local, fusion.input(),
                fusion.columns(), fusion.condition(), fusion.rowtime(), fusion.intervalMillis()));
    }

    private static CalcDecision decide(String name, java.util.function.Supplier<NativeCalcSpec> admission) {
        try {
            return CalcDecision.nativeCalc(name, admission.get());
        } catch (NotAdmittedException e) {
            return CalcDecision.stock(name, e.getMessage());
        } catch (RuntimeException e) {
            // a translator bug must cost the query its native island, never the query itself
            return CalcDecision.stock(name, "Gatun could not translate this local aggregate (" + e + ")");
        }
    }

    /**
     * @param input what the island reads
     * @param aggInput the aggregate's input columns over {@code input}'s rows
     * @param condition the Calc's filter over {@code input}'s rows, or null
     * @param rowtime the rowtime of an absorbed WatermarkAssigner (its NULL check), or null
     * @param miniBatchMillis the interval of an absorbed mini-batch assigner, 0 for none
     */
    private NativeCalcSpec admit(StreamPhysicalLocalGroupAggregate local, RelNode input, List<RexNode> aggInput,
                                 RexNode condition, RexNode rowtime, long miniBatchMillis) {
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
            throw new NotAdmittedException(ExecutionConfigOptions.TABLE_EXEC_MINIBATCH_SIZE.key() + " is " + bundle);
        }
        // only the columns the aggregate reads cross, renumbered in order of first use
        Map<Integer, Integer> used = new LinkedHashMap<>();
        int[] keys = local.grouping().clone();
        for (int k = 0; k < keys.length; k++) {
            keys[k] = used.computeIfAbsent(keys[k], c -> used.size());
        }
        List<Measure> measures = new ArrayList<>();
        for (AggregateCall call : JavaScalaConversionUtil.toJava(local.aggCalls())) {
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
        if (rowtime != null) {
            all.add(rowtime);
        }
        RowType inputType = FlinkTypeFactory.toLogicalRowType(input.getRowType());
        RowType outputType = FlinkTypeFactory.toLogicalRowType(local.getRowType());
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
                .translate(columns, condition, keys, measures, outputType, bundle, rowtime);
        OutputFormat exit = BinaryRowExit.supports(outputType) ? OutputFormat.FLINK_ROWS : OutputFormat.ARROW;
        try {
            NativePlanCheck.compile(NativeOperator.Kind.LOCAL_AGGREGATE, plan, inputType, readPaths, outputType,
                    types, exit);
        } catch (NativeException e) {
            throw new NotAdmittedException("the native library refuses the plan: " + e.getMessage());
        }
        // after the native check, so that an aggregate the cost rule rejects still names what would stop it natively
        String rejection = new CostRule(config).aggregateRejection(miniBatchMillis > 0
                ? CostRule.AggregatePlanning.ABSORBED_ASSIGNERS : CostRule.AggregatePlanning.PLAIN);
        if (rejection != null) {
            throw new NotAdmittedException(rejection);
        }
        return new NativeCalcSpec(plan, inputType, readPaths, outputType, true, config.get(GatunOptions.BATCH_ROWS),
                0, types.nanosecondTimestamps(), exit == OutputFormat.FLINK_ROWS, false, bundle, miniBatchMillis);
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
