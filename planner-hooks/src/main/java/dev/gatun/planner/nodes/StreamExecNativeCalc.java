package dev.gatun.planner.nodes;

import dev.gatun.planner.runtime.NativeCalcOperator;
import java.util.List;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.delegation.PlannerBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecEdge;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeConfig;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecCalc;
import org.apache.flink.table.planner.plan.nodes.exec.utils.ExecNodeUtil;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.calcite.rex.RexNode;

/**
 * The exec node of a native Calc. It is a {@link StreamExecCalc} with the same node type and
 * transformation metadata (name, description, uid), so the job graph keeps the Calc's operator
 * identity and savepoints restore with Gatun on or off; only the operator inside differs.
 */
public final class StreamExecNativeCalc extends StreamExecCalc {
    private final NativeCalcSpec spec;

    public StreamExecNativeCalc(ReadableConfig tableConfig, List<RexNode> projection, RexNode condition,
                                InputProperty inputProperty, RowType outputType, String description,
                                NativeCalcSpec spec) {
        super(tableConfig, projection, condition, inputProperty, outputType, description);
        this.spec = spec;
    }

    @SuppressWarnings("unchecked")
    @Override
    protected Transformation<RowData> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        ExecEdge inputEdge = getInputEdges().get(0);
        Transformation<RowData> input = (Transformation<RowData>) inputEdge.translateToPlan(planner);
        // the same transformation as StreamExecCalc's (metadata, parallelism, chaining) with the
        // native operator inside: operator IDs and chains equal stock Flink's, also after legacy sources
        return ExecNodeUtil.createOneInputTransformation(
                input,
                createTransformationMeta(CALC_TRANSFORMATION, config),
                new NativeCalcOperator(spec),
                InternalTypeInfo.of(getOutputType()),
                input.getParallelism(),
                false);
    }
}
