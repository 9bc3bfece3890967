package dev.gatun.planner.nodes;

import dev.gatun.planner.runtime.NativeCalcSpec;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.physical.batch.BatchPhysicalCalc;
import org.apache.flink.table.planner.utils.ShortcutUtils;

/**
 * A batch Calc that runs as a native island: a {@link BatchPhysicalCalc} for the rest of the
 * planner (metadata, distribution traits) that prints as {@code NativeCalc(...)} in EXPLAIN.
 */
public final class BatchPhysicalNativeCalc extends BatchPhysicalCalc {
    private final NativeCalcSpec spec;

    public BatchPhysicalNativeCalc(BatchPhysicalCalc calc, NativeCalcSpec spec) {
        this(calc.getCluster(), calc.getTraitSet(), calc.getInput(), calc.getProgram(), calc.getRowType(), spec);
    }

    private BatchPhysicalNativeCalc(RelOptCluster cluster, RelTraitSet traits, RelNode input, RexProgram program,
                                    RelDataType rowType, NativeCalcSpec spec) {
        super(cluster, traits, input, program, rowType);
        this.spec = spec;
    }

    public NativeCalcSpec spec() {
        return spec;
    }

    @Override
    public Calc copy(RelTraitSet traitSet, RelNode child, RexProgram program) {
        if (program != getProgram()) {
            throw new IllegalStateException("a native Calc's program cannot change after admission");
        }
        return new BatchPhysicalNativeCalc(getCluster(), traitSet, child, program, getRowType(), spec);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("native", spec.explainSummary());
    }

    @Override
    public ExecNode<?> translateToExecNode() {
        RexProgram program = getProgram();
        List<RexNode> projection = program.getProjectList().stream().map(program::expandLocalRef).toList();
        RexNode condition = program.getCondition() == null ? null : program.expandLocalRef(program.getCondition());
        return new BatchExecNativeCalc(
                ShortcutUtils.unwrapTableConfig(this),
                projection,
                condition,
                InputProperty.DEFAULT,
                FlinkTypeFactory.toLogicalRowType(getRowType()),
                getRelDetailedDescription(),
                spec);
    }
}
