package dev.gatun.planner.nodes;

import dev.gatun.planner.runtime.NativeCalcSpec;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.flink.table.functions.UserDefinedFunction;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.physical.batch.BatchPhysicalLocalHashAggregate;
import org.apache.flink.table.planner.utils.JavaScalaConversionUtil;
import org.apache.flink.table.planner.utils.ShortcutUtils;
import scala.Tuple2;
import scala.collection.Seq;

/**
 * The local (pre-shuffle) phase of a batch two-phase hash aggregate, with the Calc below it, as one
 * native island. It stays a {@link BatchPhysicalLocalHashAggregate} for the rest of the planner (its
 * row type is the stock local row type the global hash aggregate merges) and prints
 * {@code native=[...]} in EXPLAIN. Its input is the Calc it absorbed, as a {@link BatchPhysicalFusedCalc}
 * (or the stock input when there was no Calc).
 */
public final class BatchPhysicalNativeLocalHashAggregate extends BatchPhysicalLocalHashAggregate {
    private final NativeCalcSpec spec;
    private final Seq<Tuple2<AggregateCall, UserDefinedFunction>> calls;

    public BatchPhysicalNativeLocalHashAggregate(BatchPhysicalLocalHashAggregate local, RelNode input,
                                                 NativeCalcSpec spec) {
        this(local.getCluster(), local.getTraitSet(), input, local.getRowType(), local.grouping(),
                local.auxGrouping(), local.supportAdaptiveLocalHashAgg(), local.getAggCallToAggFunction(), spec);
    }

    private BatchPhysicalNativeLocalHashAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input,
                                                  RelDataType rowType, int[] grouping, int[] auxGrouping,
                                                  boolean adaptive,
                                                  Seq<Tuple2<AggregateCall, UserDefinedFunction>> calls,
                                                  NativeCalcSpec spec) {
        super(cluster, traits, input, rowType, input.getRowType(), grouping, auxGrouping, adaptive, calls);
        this.spec = spec;
        this.calls = calls;
    }

    public NativeCalcSpec spec() {
        return spec;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new BatchPhysicalNativeLocalHashAggregate(getCluster(), traitSet, inputs.get(0), getRowType(),
                grouping(), auxGrouping(), supportAdaptiveLocalHashAgg(), calls, spec);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("native", spec.explainSummary());
    }

    @Override
    public ExecNode<?> translateToExecNode() {
        // the stock node's input property: a local aggregate without keys emits at the end of input only
        InputProperty input = grouping().length == 0
                ? InputProperty.builder().damBehavior(InputProperty.DamBehavior.END_INPUT).build()
                : InputProperty.DEFAULT;
        return new BatchExecNativeLocalHashAggregate(
                ShortcutUtils.unwrapTableConfig(this),
                grouping(),
                auxGrouping(),
                JavaScalaConversionUtil.toJava(getAggCallList()).toArray(new AggregateCall[0]),
                FlinkTypeFactory.toLogicalRowType(getInput().getRowType()),
                supportAdaptiveLocalHashAgg(),
                input,
                FlinkTypeFactory.toLogicalRowType(getRowType()),
                getRelDetailedDescription(),
                spec);
    }
}
