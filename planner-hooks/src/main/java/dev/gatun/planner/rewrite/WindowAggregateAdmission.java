package dev.gatun.planner.rewrite;

import dev.gatun.arrow.operator.NativeOperator;
import dev.gatun.arrow.operator.OutputFormat;
import dev.gatun.ffm.NativeException;
import dev.gatun.planner.GatunOptions;
import dev.gatun.planner.nodes.NativePlanCheck;
import dev.gatun.planner.runtime.NativeCalcSpec;
import dev.gatun.planner.substrait.AggregateTranslator;
import dev.gatun.planner.substrait.AggregateTranslator.Measure;
import dev.gatun.planner.substrait.AggregateTranslator.ResultMeasure;
import dev.gatun.planner.substrait.NotAdmittedException;
import dev.gatun.planner.substrait.ReadPaths;
import dev.gatun.planner.substrait.WindowSlicing;
import dev.gatun.transpose.exit.BinaryRowExit;
import dev.gatun.transpose.types.TypeMapping;
import dev.gatun.transpose.types.TypeMappingException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.sql.SqlKind;
import org.apache.flink.table.api.TableConfig;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.logical.SliceAttachedWindowingStrategy;
import org.apache.flink.table.planner.plan.logical.WindowingStrategy;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalCalc;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalGlobalWindowAggregate;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalRel;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalWindowAggregate;
import org.apache.flink.table.planner.plan.utils.AggregateUtil;
import org.apache.flink.table.planner.plan.utils.ChangelogPlanUtils;
import org.apache.flink.table.planner.plan.utils.WindowEmitStrategy;
import org.apache.flink.table.planner.utils.JavaScalaConversionUtil;
import org.apache.flink.table.runtime.groupwindow.NamedWindowProperty;
import org.apache.flink.table.runtime.groupwindow.RowtimeAttribute;
import org.apache.flink.table.runtime.groupwindow.WindowEnd;
import org.apache.flink.table.runtime.groupwindow.WindowProperty;
import org.apache.flink.table.runtime.groupwindow.WindowStart;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;

/**
 * Decides whether a window aggregate runs as a native keyed island with native state, and if not,
 * why: the global phase of a two-phase window aggregate (above the exchange, its input the local
 * phase's accumulators per {@code $slice_end}), or a one-phase window aggregate (its input the raw
 * rows, sliced by their rowtime). Either way: a TUMBLE, HOP or CUMULATE window on event time; no emit
 * strategy ({@code table.exec.emit.*}); insert-only input; COUNT, SUM, $SUM0, AVG, MIN, MAX without
 * DISTINCT (a one-phase aggregate applies their FILTERs, a global phase merges what the local phase
 * filtered); window properties start, end and rowtime; slice ends that are Flink's window buffer
 * trigger points; every type maps to Arrow and Rust compiles the plan. The global phase's decision
 * does not depend on the local phase's: its input row type is the same native or stock.
 */
public final class WindowAggregateAdmission {
    /** Why a window whose slice ends are not Flink's buffer trigger points stays on Flink. */
    static final String MISALIGNED_REASON = "a window whose slice ends are not the trigger points of Flink's"
            + " window buffer (an offset, or a zone offset, that is not a multiple of the size, slide or step) is not"
            + " admitted natively";

    /** Why the local phase of such a window does not absorb the assigners below it. */
    static final String MISALIGNED_FUSION_REASON = "a window whose slice ends are not the trigger points of"
            + " Flink's window buffer needs every watermark the assigners forward, so they stay on Flink";

    private final LocalAggregateAdmission windows;
    private final TableConfig config;
    private final TypeMapping types;

    public WindowAggregateAdmission(TableConfig config) {
        this.config = config;
        this.windows = new LocalAggregateAdmission(config);
        this.types = new TypeMapping(config.get(GatunOptions.NANOSECOND_TIMESTAMPS));
    }

    public CalcDecision decide(StreamPhysicalGlobalWindowAggregate global) {
        return CalcDecision.decide(global.getRelDetailedDescription(), "window aggregate", () -> admit(global));
    }

    public CalcDecision decide(StreamPhysicalWindowAggregate onePhase) {
        return CalcDecision.decide(onePhase.getRelDetailedDescription(), "window aggregate", () -> admit(onePhase));
    }

    /**
     * The Calc directly above a native window aggregate (global or one phase), absorbed into the
     * aggregate's exit: the aggregate then emits the Calc's rows itself, so the job compiles no Calc
     * class and hands no row through one. Only a Calc that selects, renames, reorders, repeats or drops
     * the aggregate's columns without a filter is absorbed; stock with the reason otherwise. The
     * aggregate's own row type, its checks in Rust and its state stay as they are.
     *
     * @param aggregate the native aggregate's spec
     */
    public CalcDecision decideExit(StreamPhysicalCalc calc, NativeCalcSpec aggregate) {
        String name = calc.getRelDetailedDescription() + " fused into the exit of the window aggregate below";
        return CalcDecision.decide(name, "Calc", () -> {
            RexProgram program = calc.getProgram();
            if (program.getCondition() != null) {
                throw new NotAdmittedException("the Calc above the window aggregate filters rows");
            }
            List<RexLocalRef> projections = program.getProjectList();
            int[] mapping = new int[projections.size()];
            for (int j = 0; j < mapping.length; j++) {
                if (!(program.expandLocalRef(projections.get(j)) instanceof RexInputRef ref)) {
                    throw new NotAdmittedException("the Calc above the window aggregate computes a column");
                }
                mapping[j] = ref.getIndex();
            }
            RowType projected = FlinkTypeFactory.toLogicalRowType(calc.getRowType());
            byte[] plan = AggregateTranslator.withEmit(aggregate.substraitPlan(), mapping);
            OutputFormat exit = aggregate.flinkRowsExit() ? OutputFormat.FLINK_ROWS : OutputFormat.ARROW;
            try {
                NativePlanCheck.compile(NativeOperator.Kind.WINDOW_AGGREGATE, plan, aggregate.inputType(),
                        aggregate.readPaths(), aggregate.outputType(), types, exit);
            } catch (NativeException e) {
                throw new NotAdmittedException("the native library refuses the projected plan: " + e.getMessage());
            }
            return aggregate.withExitProjection(plan, mapping, projected);
        });
    }

    /**
     * A one-phase window aggregate over a window table function merged into it (Flink's time-attribute
     * windowing): the raw rows cross (only the columns it reads), the kernel slices each by its rowtime,
     * accumulates it (FILTERs applied) and keys it by the group keys, which need not lead the row.
     */
    private NativeCalcSpec admit(StreamPhysicalWindowAggregate onePhase) {
        LocalAggregateAdmission.Window window = windows.window(onePhase.windowing());
        requireNoEmitStrategy();
        requireInsertOnly(onePhase.getInput(), AggregateUtil.needRetraction(onePhase));
        RowType inputType = FlinkTypeFactory.toLogicalRowType(onePhase.getInput().getRowType());
        RowType outputType = FlinkTypeFactory.toLogicalRowType(onePhase.getRowType());
        // only the columns the aggregate reads cross, renumbered in order of first use
        Map<Integer, Integer> used = new LinkedHashMap<>();
        int[] grouping = onePhase.grouping();
        int[] keys = new int[grouping.length];
        for (int k = 0; k < grouping.length; k++) {
            keys[k] = used.computeIfAbsent(grouping[k], c -> used.size());
        }
        List<AggregateCall> calls = JavaScalaConversionUtil.toJava(onePhase.aggCalls());
        boolean hop = window.kind() == WindowSlicing.Kind.HOP;
        List<Measure> measures = new ArrayList<>();
        int countStar = 0;
        for (int i = 0; i < calls.size(); i++) {
            AggregateCall call = calls.get(i);
            String function = LocalAggregateAdmission.function(call);
            int argument = call.getArgList().isEmpty() ? -1
                    : used.computeIfAbsent(call.getArgList().get(0), c -> used.size());
            int filter = call.filterArg < 0 ? -1 : used.computeIfAbsent(call.filterArg, c -> used.size());
            measures.add(new Measure(function, argument, filter));
            if (hop && LocalAggregateAdmission.isPlainCountStar(call)) {
                countStar = i + 1; // Flink keeps the last one
            }
        }
        boolean inserted = hop && countStar == 0;
        if (inserted) {
            // Flink's hopping windows carry a COUNT(*) of their own, last, to tell empty windows
            measures.add(new Measure("count", -1, -1));
            countStar = measures.size();
        }
        int time = used.computeIfAbsent(window.timeAttribute(), c -> used.size());
        WindowSlicing slicing = window.slicing(time)
                .withResult(time, properties(onePhase.namedWindowProperties()), countStar, inserted);
        RexBuilder rex = onePhase.getCluster().getRexBuilder();
        List<RexNode> columns = new ArrayList<>();
        used.keySet().forEach(c -> columns.add(rex.makeInputRef(onePhase.getInput(), c)));
        List<int[]> readPaths = ReadPaths.of(columns);
        requireTypes(inputType, readPaths, outputType);
        byte[] plan = new AggregateTranslator(inputType, readPaths, types, config.get(GatunOptions.DISABLED_FUNCTIONS))
                .translateOnePhase(columns, keys, measures, outputType, slicing);
        return spec(plan, inputType, readPaths, outputType, window, slicing);
    }

    private NativeCalcSpec admit(StreamPhysicalGlobalWindowAggregate global) {
        requireNoEmitStrategy();
        WindowingStrategy windowing = global.windowing();
        if (!(windowing instanceof SliceAttachedWindowingStrategy sliced)) {
            throw new NotAdmittedException("the window is " + windowing.getClass().getSimpleName()
                    + " (window_start/window_end computed by a separate window table function); only slices"
                    + " assigned by the local phase are admitted natively");
        }
        requireInsertOnly(global.getInput(), AggregateUtil.needRetraction(global));
        RowType inputType = FlinkTypeFactory.toLogicalRowType(global.getInput().getRowType());
        RowType outputType = FlinkTypeFactory.toLogicalRowType(global.getRowType());
        int[] grouping = global.grouping();
        for (int k = 0; k < grouping.length; k++) {
            if (grouping[k] != k) {
                throw new NotAdmittedException("the group keys are not the leading columns of the local phase's rows");
            }
        }
        int sliceEnd = sliced.getSliceEnd();
        if (sliceEnd != inputType.getFieldCount() - 1
                || !inputType.getTypeAt(sliceEnd).is(LogicalTypeRoot.BIGINT)) {
            throw new NotAdmittedException("the slice end is not the local phase's last, BIGINT column");
        }
        List<AggregateCall> calls = JavaScalaConversionUtil.toJava(global.aggCalls());
        LocalAggregateAdmission.Window window = windows.window(windowing, sliceEnd);
        boolean hop = window.kind() == WindowSlicing.Kind.HOP;
        List<ResultMeasure> measures = new ArrayList<>();
        int column = grouping.length;
        int countStar = 0;
        for (int i = 0; i < calls.size(); i++) {
            AggregateCall call = calls.get(i);
            String function = LocalAggregateAdmission.function(call);
            int width = call.getAggregation().getKind() == SqlKind.AVG ? 2 : 1; // AVG: sum, count
            List<Integer> arguments = new ArrayList<>();
            for (int w = 0; w < width; w++) {
                arguments.add(column++);
            }
            measures.add(new ResultMeasure(function, arguments));
            if (hop && LocalAggregateAdmission.isPlainCountStar(call)) {
                countStar = i + 1; // Flink keeps the last one
            }
        }
        boolean inserted = hop && countStar == 0;
        if (inserted) {
            // the local phase carries Flink's COUNT(*) of a hopping window last
            measures.add(new ResultMeasure("count", List.of(column++)));
            countStar = measures.size();
        }
        if (column != sliceEnd) {
            throw new NotAdmittedException("the local phase's accumulators (" + (sliceEnd - grouping.length)
                    + " columns) are not the layout of " + calls);
        }
        WindowSlicing slicing = window.slicing(sliceEnd)
                .withResult(sliceEnd, properties(global.namedWindowProperties()), countStar, inserted);
        List<int[]> readPaths = new ArrayList<>();
        for (int i = 0; i < inputType.getFieldCount(); i++) {
            readPaths.add(new int[] {i});
        }
        requireTypes(inputType, readPaths, outputType);
        byte[] plan = new AggregateTranslator(inputType, readPaths, types, config.get(GatunOptions.DISABLED_FUNCTIONS))
                .translateGlobal(inputType, grouping.length, measures, outputType, slicing);
        return spec(plan, inputType, readPaths, outputType, window, slicing);
    }

    /** The island's spec, once Rust compiled the plan and the window's slice ends are Flink's trigger points. */
    private NativeCalcSpec spec(byte[] plan, RowType inputType, List<int[]> readPaths, RowType outputType,
                                LocalAggregateAdmission.Window window, WindowSlicing slicing) {
        OutputFormat exit = BinaryRowExit.supports(outputType) ? OutputFormat.FLINK_ROWS : OutputFormat.ARROW;
        try {
            NativePlanCheck.compile(NativeOperator.Kind.WINDOW_AGGREGATE, plan, inputType, readPaths, outputType,
                    types, exit);
        } catch (NativeException e) {
            throw new NotAdmittedException("the native library refuses the plan: " + e.getMessage());
        }
        if (!flushesAtSliceEnds(slicing)) {
            throw new NotAdmittedException(MISALIGNED_REASON);
        }
        return NativeCalcSpec.windowAggregate(plan, inputType, readPaths, outputType,
                config.get(GatunOptions.BATCH_ROWS), 0, types.nanosecondTimestamps(), exit == OutputFormat.FLINK_ROWS,
                slicing.summary());
    }

    private void requireNoEmitStrategy() {
        String emit = emitStrategy();
        if (emit != null) {
            throw new NotAdmittedException("an emit strategy (" + emit + ") is not admitted natively");
        }
    }

    private static void requireInsertOnly(RelNode input, boolean needRetraction) {
        if (!(input instanceof StreamPhysicalRel in && ChangelogPlanUtils.isInsertOnly(in)) || needRetraction) {
            throw new NotAdmittedException("the window aggregate's input is a changelog; only insert-only input is"
                    + " admitted natively");
        }
    }

    private void requireTypes(RowType inputType, List<int[]> readPaths, RowType outputType) {
        try {
            for (int[] path : readPaths) {
                types.field("input", CalcAdmission.leafType(inputType, path));
            }
            types.fields(outputType);
        } catch (TypeMappingException e) {
            throw new NotAdmittedException(e.getMessage());
        }
    }

    private static List<WindowSlicing.Property> properties(scala.collection.Seq<NamedWindowProperty> named) {
        List<WindowSlicing.Property> properties = new ArrayList<>();
        for (NamedWindowProperty p : JavaScalaConversionUtil.toJava(named)) {
            properties.add(property(p.getProperty()));
        }
        return properties;
    }

    /**
     * Whether Flink's window buffer flushes at slice ends: its trigger points are multiples of the slice
     * interval in epoch time (in local time for a zone with daylight saving time), blind to the window's
     * offset and to a fixed zone offset. Where they are not slice ends, rows can reach Flink's state after
     * their window fired (Flink then never emits them), which the native kernel does not reproduce.
     */
    static boolean flushesAtSliceEnds(WindowSlicing slicing) {
        // Flink's slice interval (SliceAssigner.getSliceEndInterval) and shift zone (UTC for a TIMESTAMP rowtime)
        long interval = slicing.kind() == WindowSlicing.Kind.TUMBLE ? slicing.size() : slicing.step();
        long shift = 0;
        if (slicing.zone() != null) {
            TimeZone zone = TimeZone.getTimeZone(slicing.zone());
            shift = zone.useDaylightTime() ? 0 : zone.getRawOffset();
        }
        return Math.floorMod(slicing.offset() - shift, interval) == 0;
    }

    private static WindowSlicing.Property property(WindowProperty p) {
        return switch (p) {
            case WindowStart s -> WindowSlicing.Property.WINDOW_START;
            case WindowEnd e -> WindowSlicing.Property.WINDOW_END;
            case RowtimeAttribute r -> WindowSlicing.Property.WINDOW_TIME;
            default -> throw new NotAdmittedException("window property " + p + " is not admitted natively");
        };
    }

    /** The {@code table.exec.emit.*} keys that are set, or null. */
    private String emitStrategy() {
        List<String> set = new ArrayList<>();
        if (config.get(WindowEmitStrategy.TABLE_EXEC_EMIT_EARLY_FIRE_ENABLED())) {
            set.add(WindowEmitStrategy.TABLE_EXEC_EMIT_EARLY_FIRE_ENABLED().key());
        }
        if (config.get(WindowEmitStrategy.TABLE_EXEC_EMIT_LATE_FIRE_ENABLED())) {
            set.add(WindowEmitStrategy.TABLE_EXEC_EMIT_LATE_FIRE_ENABLED().key());
        }
        if (config.getOptional(WindowEmitStrategy.TABLE_EXEC_EMIT_ALLOW_LATENESS()).isPresent()) {
            set.add(WindowEmitStrategy.TABLE_EXEC_EMIT_ALLOW_LATENESS().key());
        }
        return set.isEmpty() ? null : String.join(", ", set);
    }
}
