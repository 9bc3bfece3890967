package dev.gatun.planner.rewrite;

import dev.gatun.ffm.NativeException;
import dev.gatun.planner.GatunOptions;
import dev.gatun.planner.nodes.NativePlanCheck;
import dev.gatun.planner.runtime.NativeCalcSpec;
import dev.gatun.planner.substrait.CalcTranslator;
import dev.gatun.planner.substrait.NotAdmittedException;
import dev.gatun.planner.substrait.ReadPaths;
import dev.gatun.transpose.types.TypeMapping;
import dev.gatun.transpose.types.TypeMappingException;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexUtil;
import org.apache.flink.table.api.TableConfig;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalCalc;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalRel;
import org.apache.flink.table.planner.plan.utils.ChangelogPlanUtils;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Decides whether one Calc runs natively, and if not, why. In order: every type it reads and
 * writes maps to Arrow; every expression translates to an admitted Substrait function; the
 * cost rule ({@link CostRule}, docs/planner.md) says native pays off.
 */
public final class CalcAdmission {
    private final TableConfig config;
    private final TypeMapping types;

    public CalcAdmission(TableConfig config) {
        this.config = config;
        this.types = new TypeMapping(config.get(GatunOptions.NANOSECOND_TIMESTAMPS));
    }

    public CalcDecision decide(StreamPhysicalCalc calc) {
        String name = calc.getRelDetailedDescription();
        try {
            return CalcDecision.nativeCalc(name, admit(calc));
        } catch (NotAdmittedException e) {
            return CalcDecision.stock(name, e.getMessage());
        } catch (RuntimeException e) {
            // a translator bug must cost the query its native island, never the query itself
            return CalcDecision.stock(name, "Gatun could not translate this Calc (" + e + ")");
        }
    }

    private NativeCalcSpec admit(StreamPhysicalCalc calc) {
        RexProgram program = calc.getProgram();
        RexBuilder rex = calc.getCluster().getRexBuilder();
        // SEARCH (Calcite's compact IN / range form) becomes the comparisons it stands for
        List<RexNode> projections = program.getProjectList().stream()
                .map(p -> RexUtil.expandSearch(rex, null, program.expandLocalRef(p))).toList();
        RexNode condition = program.getCondition() == null ? null
                : RexUtil.expandSearch(rex, null, program.expandLocalRef(program.getCondition()));
        List<RexNode> all = new ArrayList<>(projections);
        if (condition != null) {
            all.add(condition);
        }
        RowType inputType = FlinkTypeFactory.toLogicalRowType(calc.getInput().getRowType());
        RowType outputType = FlinkTypeFactory.toLogicalRowType(calc.getRowType());
        List<int[]> readPaths = ReadPaths.of(all);
        checkTypes(inputType, readPaths, outputType);

        byte[] plan = new CalcTranslator(inputType, readPaths, types,
                config.get(GatunOptions.DISABLED_FUNCTIONS)).translate(projections, condition, outputType);
        checkNatively(plan, inputType, readPaths, outputType);
        // after translation, so that a Calc the cost rule rejects still names what would stop it natively
        String rejection = new CostRule(config).rejection(projections, condition);
        if (rejection != null) {
            throw new NotAdmittedException(rejection);
        }
        return new NativeCalcSpec(plan, inputType, readPaths, outputType, isInsertOnly(calc),
                config.get(GatunOptions.BATCH_ROWS), config.get(GatunOptions.BATCH_LATENCY).toMillis(),
                types.nanosecondTimestamps());
    }

    /**
     * Compiles the plan in Rust once at planning time, so that a plan Rust refuses keeps the Calc
     * on Flink with Rust's reason instead of failing the job when the operator opens.
     */
    private void checkNatively(byte[] plan, RowType inputType, List<int[]> readPaths, RowType outputType) {
        try {
            NativePlanCheck.compile(plan, inputType, readPaths, outputType, types);
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

    private static boolean isInsertOnly(StreamPhysicalCalc calc) {
        return calc.getInput() instanceof StreamPhysicalRel input && ChangelogPlanUtils.isInsertOnly(input);
    }
}
