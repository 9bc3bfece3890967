package dev.gatun.planner.configured;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexProgram;
import org.apache.flink.table.planner.plan.nodes.physical.batch.BatchPhysicalCalc;

/** {@link StreamPhysicalCalcWithReason} for a batch plan: Flink's batch Calc, printing its reason. */
final class BatchPhysicalCalcWithReason extends BatchPhysicalCalc {
    private final String reason;

    BatchPhysicalCalcWithReason(BatchPhysicalCalc calc, String reason) {
        this(calc.getCluster(), calc.getTraitSet(), calc.getInput(), calc.getProgram(), calc.getRowType(), reason);
    }

    private BatchPhysicalCalcWithReason(RelOptCluster cluster, RelTraitSet traits, RelNode input,
                                        RexProgram program, RelDataType rowType, String reason) {
        super(cluster, traits, input, program, rowType);
        this.reason = reason;
    }

    @Override
    public Calc copy(RelTraitSet traitSet, RelNode child, RexProgram program) {
        return new BatchPhysicalCalcWithReason(getCluster(), traitSet, child, program, getRowType(), reason);
    }

    /** Prints as Flink's Calc, not as a node type of its own. */
    @Override
    public String getRelTypeName() {
        return BatchPhysicalCalc.class.getSimpleName();
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("gatun", "stock: " + reason);
    }
}
