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
import dev.gatun.planner.substrait.WindowSlicing;
import dev.gatun.transpose.exit.BinaryRowExit;
import dev.gatun.transpose.types.TypeMapping;
import dev.gatun.transpose.types.TypeMappingException;
import java.time.Duration;
import java.time.ZoneId;
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
import org.apache.calcite.sql.SqlKind;
import org.apache.flink.table.api.TableConfig;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.PartialFinalType;
import org.apache.flink.table.planner.plan.logical.CumulativeWindowSpec;
import org.apache.flink.table.planner.plan.logical.HoppingWindowSpec;
import org.apache.flink.table.planner.plan.logical.TimeAttributeWindowingStrategy;
import org.apache.flink.table.planner.plan.logical.TumblingWindowSpec;
import org.apache.flink.table.planner.plan.logical.WindowSpec;
import org.apache.flink.table.planner.plan.logical.WindowingStrategy;
import org.apache.flink.table.planner.plan.nodes.FlinkRelNode;
import org.apache.flink.table.planner.plan.nodes.common.CommonCalc;
import org.apache.flink.table.planner.plan.nodes.physical.batch.BatchPhysicalCalc;
import org.apache.flink.table.planner.plan.nodes.physical.batch.BatchPhysicalLocalHashAggregate;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalCalc;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalLocalGroupAggregate;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalLocalWindowAggregate;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalRel;
import org.apache.flink.table.planner.plan.utils.ChangelogPlanUtils;
import org.apache.flink.table.planner.utils.JavaScalaConversionUtil;
import org.apache.flink.table.planner.utils.TableConfigUtils;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;

/**
 * Decides whether the local phase of a two-phase group or window aggregate (with the Calc directly
 * below it, if any) runs as one native island, and if not, why: insert-only input; for a window, a
 * TUMBLE, HOP or CUMULATE window table function on event time merged into the aggregate; COUNT(*), COUNT(x), SUM,
 * AVG, MIN, MAX, each optionally with FILTER, no DISTINCT; every type maps to Arrow; the Calc and
 * the arguments translate; Rust compiles the plan (it checks the argument types the kernel admits
 * and that its output row type is the stock local row type).
 *
 * <p>Both modes share the decision: streaming's {@link StreamPhysicalLocalGroupAggregate} (mini-batch
 * on; the island emits per bundle) and {@link StreamPhysicalLocalWindowAggregate} (the island emits
 * as Flink's window buffer does), and batch's {@link BatchPhysicalLocalHashAggregate} (the island
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

    /** The island's name in EXPLAIN: the local aggregate, and the Calc it absorbs. */
    static String name(FlinkRelNode local, CommonCalc calc) {
        return local.getRelDetailedDescription()
                + (calc == null ? "" : " fused with " + calc.getRelDetailedDescription());
    }

    TableConfig config() {
        return config;
    }

    /** @param calc the Calc directly below {@code local}, or null */
    public CalcDecision decide(StreamPhysicalLocalGroupAggregate local, StreamPhysicalCalc calc) {
        return decide(name(local, calc), () -> admit(local, AggregateInput.of(local, calc), local.grouping(),
                JavaScalaConversionUtil.toJava(local.aggCalls()), new Emission(groupBundle(local), 0, null, 0, null), null));
    }

    /** The island that also absorbs the mini-batch assigner (and what is under it) below {@code local}. */
    public CalcDecision decide(StreamPhysicalLocalGroupAggregate local, MiniBatchFusion fusion) {
        return decide(local.getRelDetailedDescription() + fusion.description(), () -> admit(local,
                new AggregateInput(fusion.input(), fusion.columns(), fusion.condition()), local.grouping(),
                JavaScalaConversionUtil.toJava(local.aggCalls()),
                new Emission(groupBundle(local), 0, null, fusion.intervalMillis(), null), fusion.rowtime()));
    }

    /**
     * The local window aggregate's island that also absorbs the row-time mini-batch assigner, the
     * WatermarkAssigner under it (whose watermarks it computes) and the computed-column Calc under that.
     */
    public CalcDecision decide(StreamPhysicalLocalWindowAggregate local, MiniBatchFusion fusion) {
        return decide(local.getRelDetailedDescription() + fusion.description(), () -> admit(local,
                new AggregateInput(fusion.input(), fusion.columns(), fusion.condition()), local.grouping(),
                JavaScalaConversionUtil.toJava(local.aggCalls()),
                new Emission(0, 0, window(local.windowing()), fusion.intervalMillis(), fusion.watermark()),
                fusion.rowtime()));
    }

    /** @param calc the Calc directly below {@code local}, or null */
    public CalcDecision decide(BatchPhysicalLocalHashAggregate local, BatchPhysicalCalc calc) {
        return decide(name(local, calc), () -> {
            long limit = config.get(GatunOptions.BATCH_AGGREGATE_GROUP_LIMIT);
            if (limit <= 0) {
                throw new NotAdmittedException(GatunOptions.BATCH_AGGREGATE_GROUP_LIMIT.key() + " is " + limit);
            }
            int[] grouping = local.grouping();
            int[] aux = local.auxGrouping();
            int[] keys = new int[grouping.length + aux.length];
            System.arraycopy(grouping, 0, keys, 0, grouping.length);
            System.arraycopy(aux, 0, keys, grouping.length, aux.length);
            return admit(local, AggregateInput.of(local, calc), keys,
                    JavaScalaConversionUtil.toJava(local.getAggCallList()), new Emission(0, limit, null, 0, null), null);
        });
    }

    /** The bundle size of a local group aggregate's island, or why there is none. */
    private long groupBundle(StreamPhysicalLocalGroupAggregate local) {
        if (local.partialFinalType() != PartialFinalType.NONE) {
            throw new NotAdmittedException("a split distinct aggregate (" + local.partialFinalType()
                    + " phase) is not admitted natively");
        }
        long bundle = config.get(ExecutionConfigOptions.TABLE_EXEC_MINIBATCH_SIZE);
        if (bundle <= 0) {
            throw new NotAdmittedException(ExecutionConfigOptions.TABLE_EXEC_MINIBATCH_SIZE.key() + " is " + bundle);
        }
        return bundle;
    }

    /**
     * The local phase of a two-phase window aggregate over a TUMBLE, HOP or CUMULATE window table
     * function on event time (the window merged into the aggregate, Flink's time-attribute windowing).
     *
     * @param calc the Calc directly below {@code local}, or null
     */
    public CalcDecision decide(StreamPhysicalLocalWindowAggregate local, StreamPhysicalCalc calc) {
        return decide(name(local, calc), () -> admit(local, AggregateInput.of(local, calc), local.grouping(),
                JavaScalaConversionUtil.toJava(local.aggCalls()), new Emission(0, 0, window(local.windowing()), 0,
                null), null));
    }

    private static CalcDecision decide(String name, Supplier<NativeCalcSpec> admit) {
        return CalcDecision.decide(name, "local aggregate", admit);
    }

    /** The window of a local window aggregate: which slices its rows go to, the time column aside. */
    Window window(WindowingStrategy windowing) {
        if (!(windowing instanceof TimeAttributeWindowingStrategy strategy)) {
            throw new NotAdmittedException("the window is " + windowing.getClass().getSimpleName()
                    + " (window_start/window_end computed by a separate window table function); only a window"
                    + " table function merged into the aggregate is admitted natively");
        }
        return window(strategy, strategy.getTimeAttributeIndex());
    }

    /** The window of {@code strategy} (local, global or one-phase), its time column at {@code timeIndex}. */
    Window window(WindowingStrategy strategy, int timeIndex) {
        if (!strategy.isRowtime()) {
            throw new NotAdmittedException("a processing-time window is not admitted natively (only event time)");
        }
        WindowSpec spec = strategy.getWindow();
        ZoneId zone = strategy.getTimeAttributeType().is(LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE)
                ? TableConfigUtils.getLocalTimeZone(config) : null;
        return switch (spec) {
            case TumblingWindowSpec t -> new Window(WindowSlicing.Kind.TUMBLE, timeIndex,
                    t.getSize(), Duration.ZERO, t.getOffset(), zone);
            case HoppingWindowSpec h -> new Window(WindowSlicing.Kind.HOP, timeIndex,
                    h.getSize(), h.getSlide(), h.getOffset(), zone);
            case CumulativeWindowSpec c -> new Window(WindowSlicing.Kind.CUMULATE,
                    timeIndex, c.getMaxSize(), c.getStep(), c.getOffset(), zone);
            default -> throw new NotAdmittedException("a " + spec.getClass().getSimpleName()
                    .replace("WindowSpec", "").toUpperCase(java.util.Locale.ROOT)
                    + " window is not admitted natively (TUMBLE, HOP and CUMULATE are)");
        };
    }

    /** A window before the time column is renumbered among the columns that cross. */
    record Window(WindowSlicing.Kind kind, int timeAttribute, Duration size, Duration step, Duration offset,
                          ZoneId zone) {
        WindowSlicing slicing(int timeColumn) {
            return new WindowSlicing(kind, timeColumn, size.toMillis(), step.toMillis(),
                    offset == null ? 0 : offset.toMillis(), zone);
        }
    }

    /**
     * What the island reads and the aggregate's input columns and filter over those rows.
     *
     * @param condition the Calc's filter, or null
     */
    private record AggregateInput(RelNode input, List<RexNode> columns, RexNode condition) {
        /** Over the Calc directly below {@code local} ({@code calc}, or null: the input's fields). */
        static AggregateInput of(RelNode local, CommonCalc calc) {
            RelNode input = calc == null ? local.getInput(0) : calc.getInput();
            RexBuilder rex = local.getCluster().getRexBuilder();
            List<RexNode> columns = new ArrayList<>();
            RexNode condition = null;
            if (calc == null) {
                for (int i = 0; i < input.getRowType().getFieldCount(); i++) {
                    columns.add(rex.makeInputRef(input, i));
                }
            } else {
                RexProgram program = calc.getProgram();
                for (RexLocalRef p : program.getProjectList()) {
                    columns.add(RexUtil.expandSearch(rex, null, program.expandLocalRef(p)));
                }
                if (program.getCondition() != null) {
                    condition = RexUtil.expandSearch(rex, null, program.expandLocalRef(program.getCondition()));
                }
            }
            return new AggregateInput(input, columns, condition);
        }
    }

    /**
     * When the island's groups leave: streaming's bundle of rows (and the interval of an absorbed
     * mini-batch assigner, 0 for none), batch's group limit, or a window's slices; one of the three.
     * A window island that absorbed a row-time mini-batch assigner also has its {@code watermark}.
     */
    private record Emission(long bundleRows, long groupLimit, Window window, long miniBatchMillis,
                            RexNode watermark) {}

    /**
     * @param keys the grouping columns of the aggregate's input (batch: then the auxiliary ones)
     * @param rowtime the rowtime of an absorbed WatermarkAssigner (its NULL check), or null
     */
    private NativeCalcSpec admit(RelNode local, AggregateInput in, int[] keys, List<AggregateCall> calls,
                                 Emission emission, RexNode rowtime) {
        RelNode input = in.input();
        Window window = emission.window();
        boolean streaming = local instanceof StreamPhysicalRel;
        if (streaming && !(input instanceof StreamPhysicalRel rel && ChangelogPlanUtils.isInsertOnly(rel))) {
            throw new NotAdmittedException("the local aggregate's input is a changelog; only insert-only input"
                    + " is admitted natively");
        }
        RexNode condition = in.condition();
        List<RexNode> aggInput = UnderFilter.simplify(local.getCluster().getRexBuilder(), in.columns(), condition);
        // only the columns the aggregate reads cross, renumbered in order of first use
        Map<Integer, Integer> used = new LinkedHashMap<>();
        keys = keys.clone();
        for (int k = 0; k < keys.length; k++) {
            keys[k] = used.computeIfAbsent(keys[k], c -> used.size());
        }
        List<Measure> measures = new ArrayList<>();
        for (AggregateCall call : calls) {
            String function = function(call);
            int argument = call.getArgList().isEmpty() ? -1
                    : used.computeIfAbsent(call.getArgList().get(0), c -> used.size());
            int filter = call.filterArg < 0 ? -1 : used.computeIfAbsent(call.filterArg, c -> used.size());
            measures.add(new Measure(function, argument, filter));
        }
        if (window != null && window.kind() == WindowSlicing.Kind.HOP
                && calls.stream().noneMatch(LocalAggregateAdmission::isPlainCountStar)) {
            // Flink's hopping windows carry a COUNT(*) of their own, last, to tell empty windows
            measures.add(new Measure("count", -1, -1));
        }
        WindowSlicing slicing = window == null ? null
                : window.slicing(used.computeIfAbsent(window.timeAttribute(), c -> used.size()));
        if (emission.watermark() != null && !WindowAggregateAdmission.flushesAtSliceEnds(slicing)) {
            // The island emits at most one watermark between two output rows, where Flink's assigners
            // forward several; a stock window buffer downstream of a misaligned window tells them apart.
            throw new NotAdmittedException(WindowAggregateAdmission.MISALIGNED_FUSION_REASON);
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
        if (emission.watermark() != null) {
            all.add(emission.watermark());
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
                .translate(columns, condition, keys, measures, outputType, emission.bundleRows(), emission.groupLimit(),
                        rowtime, slicing, emission.watermark(), emission.watermark() == null ? 0 : emission.miniBatchMillis());
        OutputFormat exit = BinaryRowExit.supports(outputType) ? OutputFormat.FLINK_ROWS : OutputFormat.ARROW;
        try {
            NativePlanCheck.compile(NativeOperator.Kind.LOCAL_AGGREGATE, plan, inputType, readPaths, outputType,
                    types, exit);
        } catch (NativeException e) {
            throw new NotAdmittedException("the native library refuses the plan: " + e.getMessage());
        }
        if (streaming && window == null) {
            // after the native check, so that an aggregate the cost rule rejects still names what would stop it
            String rejection = new CostRule(config).aggregateRejection(emission.miniBatchMillis() > 0
                    ? CostRule.AggregatePlanning.ABSORBED_ASSIGNERS : CostRule.AggregatePlanning.PLAIN);
            if (rejection != null) {
                throw new NotAdmittedException(rejection);
            }
        }
        NativeCalcSpec spec = new NativeCalcSpec(plan, inputType, readPaths, outputType, true,
                config.get(GatunOptions.BATCH_ROWS), 0, types.nanosecondTimestamps(), exit == OutputFormat.FLINK_ROWS,
                emission.watermark() != null, emission.bundleRows(), emission.groupLimit(), emission.miniBatchMillis());
        return slicing == null ? spec : spec.withWindow(slicing.summary());
    }

    static boolean isPlainCountStar(AggregateCall call) {
        return call.getAggregation().getKind() == SqlKind.COUNT && call.getArgList().isEmpty() && call.filterArg < 0
                && !call.isApproximate() && !call.isDistinct();
    }

    /** The Substrait name of an admitted call, or why it stays on Flink. */
    static String function(AggregateCall call) {
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
