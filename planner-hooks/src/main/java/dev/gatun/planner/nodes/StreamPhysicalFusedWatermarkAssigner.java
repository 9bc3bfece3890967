package dev.gatun.planner.nodes;

import dev.gatun.planner.runtime.NativeCalcSpec;
import java.util.List;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.hint.RelHint;
import org.apache.calcite.rex.RexNode;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalWatermarkAssigner;
import org.apache.flink.table.planner.plan.nodes.calcite.WatermarkUtils;
import org.apache.flink.table.planner.utils.ShortcutUtils;

/** A WatermarkAssigner fused into the native island above it ({@link StreamExecFusedWatermarkAssigner}). */
public final class StreamPhysicalFusedWatermarkAssigner extends StreamPhysicalWatermarkAssigner
        implements FusedPlace.Holder {
    private final NativeCalcSpec island;
    private FusedPlace place;

    public StreamPhysicalFusedWatermarkAssigner(StreamPhysicalWatermarkAssigner assigner, RelNode input,
                                                NativeCalcSpec island) {
        this(assigner.getCluster(), assigner.getTraitSet(), input, assigner.hints(), assigner.rowtimeFieldIndex(),
                assigner.watermarkExpr(), island);
    }

    private StreamPhysicalFusedWatermarkAssigner(org.apache.calcite.plan.RelOptCluster cluster, RelTraitSet traits,
                                                 RelNode input, List<RelHint> hints, int rowtimeFieldIndex,
                                                 RexNode watermarkExpr, NativeCalcSpec island) {
        super(cluster, traits, input, hints, rowtimeFieldIndex, watermarkExpr);
        this.island = island;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, RelNode input, List<RelHint> hints, int rowtime, RexNode watermark) {
        return new StreamPhysicalFusedWatermarkAssigner(getCluster(), traitSet, input, hints, rowtime, watermark,
                island);
    }

    @Override
    public RelNode withHints(List<RelHint> hintList) {
        return new StreamPhysicalFusedWatermarkAssigner(getCluster(), getTraitSet(), getInput(), hintList,
                rowtimeFieldIndex(), watermarkExpr(), island);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("native", FusedInto.text(island));
    }

    @Override
    public ExecNode<?> translateToExecNode() {
        FusedPlace.countReads(this);
        place = new FusedPlace(island);
        return new StreamExecFusedWatermarkAssigner(ShortcutUtils.unwrapTableConfig(this),
                WatermarkUtils.simplify(getCluster(), watermarkExpr()), rowtimeFieldIndex(), InputProperty.DEFAULT,
                FlinkTypeFactory.toLogicalRowType(getRowType()), getRelDetailedDescription(), island, place);
    }

    @Override
    public FusedPlace place() {
        return place;
    }
}
