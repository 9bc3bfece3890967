package dev.gatun.planner.nodes;

import dev.gatun.planner.runtime.NativeCalcSpec;
import java.util.List;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalLocalWindowAggregate;
import org.apache.flink.table.planner.utils.JavaScalaConversionUtil;
import org.apache.flink.table.planner.utils.ShortcutUtils;

/**
 * The local (pre-shuffle) phase of a two-phase window aggregate, with the Calc below it, as one native
 * island: {@link StreamPhysicalNativeLocalGroupAggregate}'s counterpart for window table functions. It
 * stays a {@link StreamPhysicalLocalWindowAggregate} for the rest of the planner (its row type ends with
 * the {@code $slice_end} the global window aggregate merges by) and prints {@code native=[...]} in
 * EXPLAIN.
 */
public final class StreamPhysicalNativeLocalWindowAggregate extends StreamPhysicalLocalWindowAggregate {
    private final NativeCalcSpec spec;

    public StreamPhysicalNativeLocalWindowAggregate(StreamPhysicalLocalWindowAggregate local, RelNode input,
                                                    NativeCalcSpec spec) {
        this(local.getCluster(), local.getTraitSet(), input, local, spec);
    }

    private StreamPhysicalNativeLocalWindowAggregate(org.apache.calcite.plan.RelOptCluster cluster,
                                                     RelTraitSet traits, RelNode input,
                                                     StreamPhysicalLocalWindowAggregate stock, NativeCalcSpec spec) {
        super(cluster, traits, input, stock.grouping(), stock.aggCalls(), stock.windowing());
        this.spec = spec;
    }

    public NativeCalcSpec spec() {
        return spec;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalNativeLocalWindowAggregate(getCluster(), traitSet, inputs.get(0), this, spec);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("native", spec.explainSummary());
    }

    @Override
    public ExecNode<?> translateToExecNode() {
        FusedPlace.countReads(this);
        return new StreamExecNativeLocalWindowAggregate(
                ShortcutUtils.unwrapTableConfig(this),
                grouping(),
                JavaScalaConversionUtil.toJava(aggCalls()).toArray(new AggregateCall[0]),
                windowing(),
                InputProperty.DEFAULT,
                FlinkTypeFactory.toLogicalRowType(getRowType()),
                getRelDetailedDescription(),
                spec);
    }
}
