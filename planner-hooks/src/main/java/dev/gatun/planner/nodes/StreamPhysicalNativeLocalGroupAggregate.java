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
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalLocalGroupAggregate;
import org.apache.flink.table.planner.utils.JavaScalaConversionUtil;
import org.apache.flink.table.planner.utils.ShortcutUtils;

/**
 * The local (pre-shuffle) phase of a two-phase group aggregate, with the Calc below it, as one
 * native island. It stays a {@link StreamPhysicalLocalGroupAggregate} for the rest of the planner
 * (its row type is the stock local row type the global aggregate merges) and prints
 * {@code native=[...]} in EXPLAIN. Its input is the Calc it absorbed, as a {@link StreamPhysicalFusedCalc}
 * (or the stock input when there was no Calc).
 */
public final class StreamPhysicalNativeLocalGroupAggregate extends StreamPhysicalLocalGroupAggregate {
    private final NativeCalcSpec spec;

    public StreamPhysicalNativeLocalGroupAggregate(StreamPhysicalLocalGroupAggregate local, RelNode input,
                                                   NativeCalcSpec spec) {
        this(local.getCluster(), local.getTraitSet(), input, local.grouping(),
                JavaScalaConversionUtil.toJava(local.aggCalls()), local, spec);
    }

    private StreamPhysicalNativeLocalGroupAggregate(org.apache.calcite.plan.RelOptCluster cluster, RelTraitSet traits,
                                                    RelNode input, int[] grouping, List<AggregateCall> aggCalls,
                                                    StreamPhysicalLocalGroupAggregate stock, NativeCalcSpec spec) {
        super(cluster, traits, input, grouping, JavaScalaConversionUtil.toScala(aggCalls),
                new boolean[aggCalls.size()], false, stock.partialFinalType());
        this.spec = spec;
    }

    public NativeCalcSpec spec() {
        return spec;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalNativeLocalGroupAggregate(getCluster(), traitSet, inputs.get(0), grouping(),
                JavaScalaConversionUtil.toJava(aggCalls()), this, spec);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("native", spec.explainSummary());
    }

    @Override
    public ExecNode<?> translateToExecNode() {
        FusedPlace.countReads(this);
        return new StreamExecNativeLocalGroupAggregate(
                ShortcutUtils.unwrapTableConfig(this),
                grouping(),
                JavaScalaConversionUtil.toJava(aggCalls()).toArray(new AggregateCall[0]),
                InputProperty.DEFAULT,
                FlinkTypeFactory.toLogicalRowType(getRowType()),
                getRelDetailedDescription(),
                spec);
    }
}
