package dev.gatun.planner.nodes;

import dev.gatun.planner.runtime.NativeCalcSpec;
import java.util.List;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalCalc;
import org.apache.flink.table.planner.utils.ShortcutUtils;

/** A Calc fused into the native island above it ({@link StreamExecFusedCalc}); EXPLAIN marks it. */
public final class StreamPhysicalFusedCalc extends StreamPhysicalCalc
        implements FusedPlace.Holder {
    private final NativeCalcSpec island;
    private FusedPlace place;

    public StreamPhysicalFusedCalc(StreamPhysicalCalc calc, RelNode input, NativeCalcSpec island) {
        this(calc.getCluster(), calc.getTraitSet(), input, calc.getProgram(), calc.getRowType(), island);
    }

    private StreamPhysicalFusedCalc(org.apache.calcite.plan.RelOptCluster cluster, RelTraitSet traits, RelNode input,
                                    RexProgram program, org.apache.calcite.rel.type.RelDataType rowType,
                                    NativeCalcSpec island) {
        super(cluster, traits, input, program, rowType);
        this.island = island;
    }

    @Override
    public Calc copy(RelTraitSet traitSet, RelNode child, RexProgram program) {
        if (program != getProgram()) {
            throw new IllegalStateException("a fused Calc's program cannot change after admission");
        }
        return new StreamPhysicalFusedCalc(getCluster(), traitSet, child, program, getRowType(), island);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("native", FusedInto.text(island));
    }

    @Override
    public ExecNode<?> translateToExecNode() {
        FusedPlace.countReads(this);
        place = new FusedPlace(island);
        RexProgram program = getProgram();
        List<RexNode> projection = program.getProjectList().stream().map(program::expandLocalRef).toList();
        RexNode condition = program.getCondition() == null ? null : program.expandLocalRef(program.getCondition());
        return new StreamExecFusedCalc(ShortcutUtils.unwrapTableConfig(this), projection, condition,
                InputProperty.DEFAULT, FlinkTypeFactory.toLogicalRowType(getRowType()), getRelDetailedDescription(),
                island, place);
    }

    @Override
    public FusedPlace place() {
        return place;
    }
}
