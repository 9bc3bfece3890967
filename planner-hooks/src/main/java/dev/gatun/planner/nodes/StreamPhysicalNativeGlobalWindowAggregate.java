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
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalGlobalWindowAggregate;
import org.apache.flink.table.planner.plan.utils.AggregateUtil;
import org.apache.flink.table.planner.plan.utils.WindowUtil;
import org.apache.flink.table.planner.utils.JavaScalaConversionUtil;
import org.apache.flink.table.planner.utils.ShortcutUtils;
import org.apache.flink.table.runtime.groupwindow.NamedWindowProperty;

/**
 * The global phase of a two-phase window aggregate as a native keyed island whose accumulators are
 * native state: a {@link StreamPhysicalGlobalWindowAggregate} for the rest of the planner (same row
 * type, keying and input), printing {@code native=[...]} in EXPLAIN.
 */
public final class StreamPhysicalNativeGlobalWindowAggregate extends StreamPhysicalGlobalWindowAggregate
        implements NativeWindowAggregateNode {
    private final NativeCalcSpec spec;

    public StreamPhysicalNativeGlobalWindowAggregate(StreamPhysicalGlobalWindowAggregate stock, RelNode input,
                                                     NativeCalcSpec spec) {
        this(stock.getTraitSet(), input, stock, spec);
    }

    private StreamPhysicalNativeGlobalWindowAggregate(RelTraitSet traits, RelNode input,
                                                      StreamPhysicalGlobalWindowAggregate stock, NativeCalcSpec spec) {
        super(stock.getCluster(), traits, input, stock.inputRowTypeOfLocalAgg(), stock.grouping(), stock.aggCalls(),
                stock.windowing(), stock.namedWindowProperties());
        this.spec = spec;
    }

    @Override
    public NativeCalcSpec spec() {
        return spec;
    }

    @Override
    public RelNode withSpec(NativeCalcSpec spec) {
        return new StreamPhysicalNativeGlobalWindowAggregate(this, getInput(), spec);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalNativeGlobalWindowAggregate(traitSet, inputs.get(0), this, spec);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("native", spec.explainSummary());
    }

    @Override
    public ExecNode<?> translateToExecNode() {
        WindowUtil.checkEmitConfiguration(ShortcutUtils.unwrapTableConfig(this));
        return new StreamExecNativeGlobalWindowAggregate(
                ShortcutUtils.unwrapTableConfig(this),
                grouping(),
                JavaScalaConversionUtil.toJava(aggCalls()).toArray(new AggregateCall[0]),
                windowing(),
                JavaScalaConversionUtil.toJava(namedWindowProperties()).toArray(new NamedWindowProperty[0]),
                AggregateUtil.needRetraction(this),
                InputProperty.DEFAULT,
                FlinkTypeFactory.toLogicalRowType(inputRowTypeOfLocalAgg()),
                FlinkTypeFactory.toLogicalRowType(getRowType()),
                getRelDetailedDescription(),
                spec);
    }
}
