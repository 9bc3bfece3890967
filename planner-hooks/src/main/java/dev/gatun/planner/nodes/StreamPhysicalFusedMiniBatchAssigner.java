package dev.gatun.planner.nodes;

import dev.gatun.planner.runtime.NativeCalcSpec;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalMiniBatchAssigner;
import org.apache.flink.table.planner.plan.trait.MiniBatchIntervalTraitDef;
import org.apache.flink.table.planner.utils.ShortcutUtils;

/** A MiniBatchAssigner absorbed into the native local aggregate above it ({@link StreamExecFusedMiniBatchAssigner}). */
public final class StreamPhysicalFusedMiniBatchAssigner extends StreamPhysicalMiniBatchAssigner
        implements FusedPlace.Holder {
    private final NativeCalcSpec island;
    private FusedPlace place;

    public StreamPhysicalFusedMiniBatchAssigner(StreamPhysicalMiniBatchAssigner assigner, RelNode input,
                                                NativeCalcSpec island) {
        this(assigner.getCluster(), assigner.getTraitSet(), input, island);
    }

    private StreamPhysicalFusedMiniBatchAssigner(RelOptCluster cluster, RelTraitSet traits, RelNode input,
                                                 NativeCalcSpec island) {
        super(cluster, traits, input);
        this.island = island;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalFusedMiniBatchAssigner(getCluster(), traitSet, inputs.get(0), island);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("native", FusedInto.text(island));
    }

    @Override
    public ExecNode<?> translateToExecNode() {
        FusedPlace.countReads(this);
        place = new FusedPlace(island);
        return new StreamExecFusedMiniBatchAssigner(ShortcutUtils.unwrapTableConfig(this),
                getTraitSet().getTrait(MiniBatchIntervalTraitDef.INSTANCE()).getMiniBatchInterval(),
                InputProperty.DEFAULT, FlinkTypeFactory.toLogicalRowType(getRowType()), getRelDetailedDescription(),
                island, place);
    }

    @Override
    public FusedPlace place() {
        return place;
    }
}
