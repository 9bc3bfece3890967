package dev.gatun.planner.rewrite;

import dev.gatun.arrow.operator.OutputFormat;
import dev.gatun.ffm.NativeException;
import dev.gatun.planner.GatunOptions;
import dev.gatun.planner.nodes.NativePlanCheck;
import dev.gatun.planner.runtime.NativeCalcSpec;
import dev.gatun.planner.substrait.CalcTranslator;
import dev.gatun.planner.substrait.WatermarkExprs;
import dev.gatun.transpose.exit.BinaryRowExit;
import dev.gatun.planner.substrait.NotAdmittedException;
import dev.gatun.planner.substrait.ReadPaths;
import dev.gatun.transpose.types.TypeMapping;
import dev.gatun.transpose.types.TypeMappingException;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexUtil;
import org.apache.flink.table.api.TableConfig;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.common.CommonCalc;
import org.apache.flink.table.planner.plan.nodes.physical.batch.BatchPhysicalRel;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalRel;
import org.apache.flink.table.planner.plan.utils.ChangelogPlanUtils;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Decides whether one Calc, of a streaming or a batch plan, runs natively, and if not, why. In
 * order: every type it reads and writes maps to Arrow; every expression translates to an admitted
 * Substrait function; the cost rule ({@link CostRule}, docs/planner.md) says native pays off.
 */
public final class CalcAdmission {
    private final TableConfig config;
    private final TypeMapping types;

    public CalcAdmission(TableConfig config) {
        this.config = config;
        this.types = new TypeMapping(config.get(GatunOptions.NANOSECOND_TIMESTAMPS));
    }

    /** The decision for a streaming ({@code StreamPhysicalCalc}) or batch ({@code BatchPhysicalCalc}) Calc alone. */
    public CalcDecision decide(CommonCalc calc) {
        String name = calc.getRelDetailedDescription();
        return decide(name, () -> {
            RexProgram program = calc.getProgram();
            RexBuilder rex = calc.getCluster().getRexBuilder();
            // SEARCH (Calcite's compact IN / range form) becomes the comparisons it stands for
            List<RexNode> projections = program.getProjectList().stream()
                    .map(p -> RexUtil.expandSearch(rex, null, program.expandLocalRef(p))).toList();
            RexNode condition = program.getCondition() == null ? null
                    : RexUtil.expandSearch(rex, null, program.expandLocalRef(program.getCondition()));
            return admit(calc.getInput(), calc, projections, condition, null,
                    calc instanceof BatchPhysicalRel ? CostRule.Planning.batch(projections, condition)
                            : CostRule.Planning.ALONE);
        });
    }

    /**
     * The decision for a Calc fused with the WatermarkAssigner (and computed-column Calc) under it
     * ({@link WatermarkFusion}): one island that also assigns the watermarks.
     */
    public CalcDecision decide(WatermarkFusion fusion) {
        String name = fusion.top().getRelDetailedDescription() + " fused with "
                + fusion.assigner().getRelDetailedDescription()
                + (fusion.bottom() == null ? "" : " and " + fusion.bottom().getRelDetailedDescription());
        return decide(name, () -> {
            if (config.get(ExecutionConfigOptions.TABLE_EXEC_SOURCE_IDLE_TIMEOUT).toMillis() > 0) {
                throw new NotAdmittedException(ExecutionConfigOptions.TABLE_EXEC_SOURCE_IDLE_TIMEOUT.key()
                        + " is set, and Gatun does not mark its input idle");
            }
            return admit(fusion.input(), fusion.top(), fusion.projections(), fusion.condition(),
                    new WatermarkExprs(fusion.rowtime(), fusion.watermark()), CostRule.Planning.FUSED);
        });
    }

    private CalcDecision decide(String name, java.util.function.Supplier<NativeCalcSpec> admission) {
        return CalcDecision.decide(name, "Calc", admission);
    }

    /**
     * @param input what the island reads
     * @param calc the Calc whose output the island emits
     * @param watermark the assigner's expressions over {@code input}'s rows, or null
     * @param planning how the island is planned (the cost rule's measurements differ)
     */
    private NativeCalcSpec admit(RelNode input, RelNode calc, List<RexNode> projections,
                                 RexNode condition, WatermarkExprs watermark, CostRule.Planning planning) {
        // the cost rule below weighs the Calc as Flink runs it; the island evaluates the simplified form
        List<RexNode> evaluated = UnderFilter.simplify(calc.getCluster().getRexBuilder(), projections, condition);
        List<RexNode> all = new ArrayList<>(evaluated);
        if (condition != null) {
            all.add(condition);
        }
        if (watermark != null) {
            all.add(watermark.rowtime());
            all.add(watermark.watermark());
        }
        RowType inputType = FlinkTypeFactory.toLogicalRowType(input.getRowType());
        RowType outputType = FlinkTypeFactory.toLogicalRowType(calc.getRowType());
        List<int[]> readPaths = ReadPaths.of(all);
        checkTypes(inputType, readPaths, outputType);

        byte[] plan = new CalcTranslator(inputType, readPaths, types, config.get(GatunOptions.DISABLED_FUNCTIONS))
                .translate(evaluated, condition, outputType, watermark);
        OutputFormat exit = BinaryRowExit.supports(outputType) ? OutputFormat.FLINK_ROWS : OutputFormat.ARROW;
        checkNatively(plan, inputType, readPaths, outputType, exit);
        // after translation, so that a Calc the cost rule rejects still names what would stop it natively
        String rejection = new CostRule(config).rejection(projections, condition, planning);
        if (rejection != null) {
            throw new NotAdmittedException(rejection);
        }
        boolean batch = planning.isBatch();
        // a batch job's input is bounded and insert-only, and its end flushes: no latency timer
        return NativeCalcSpec.calc(plan, inputType, readPaths, outputType, batch || isInsertOnly(input),
                config.get(GatunOptions.BATCH_ROWS), batch ? 0 : config.get(GatunOptions.BATCH_LATENCY).toMillis(),
                types.nanosecondTimestamps(), exit == OutputFormat.FLINK_ROWS, watermark != null);
    }

    /**
     * Compiles the plan in Rust once at planning time, so that a plan Rust refuses keeps the Calc
     * on Flink with Rust's reason instead of failing the job when the operator opens.
     */
    private void checkNatively(byte[] plan, RowType inputType, List<int[]> readPaths, RowType outputType,
                               OutputFormat exit) {
        try {
            NativePlanCheck.compile(plan, inputType, readPaths, outputType, types, exit);
        } catch (NativeException e) {
            throw new NotAdmittedException("the native library refuses the plan: " + e.getMessage());
        }
    }

    private void checkTypes(RowType inputType, List<int[]> readPaths, RowType outputType) {
        try {
            for (int[] path : readPaths) {
                types.field("input", leafType(inputType, path));
            }
            types.fields(outputType);
        } catch (TypeMappingException e) {
            throw new NotAdmittedException(e.getMessage());
        }
    }

    static LogicalType leafType(RowType row, int[] path) {
        LogicalType type = row;
        for (int index : path) {
            type = ((RowType) type).getTypeAt(index);
        }
        return type;
    }

    private static boolean isInsertOnly(RelNode input) {
        return input instanceof StreamPhysicalRel rel && ChangelogPlanUtils.isInsertOnly(rel);
    }
}
