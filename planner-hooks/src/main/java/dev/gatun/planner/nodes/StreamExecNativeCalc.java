package dev.gatun.planner.nodes;

import dev.gatun.planner.runtime.NativeCalcOperator;
import java.util.List;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.operators.ChainingStrategy;
import org.apache.flink.streaming.api.transformations.LegacySourceTransformation;
import org.apache.flink.streaming.api.transformations.OneInputTransformation;
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
        OneInputTransformation<RowData, RowData> transformation = ExecNodeUtil.createOneInputTransformation(
                input,
                createTransformationMeta(CALC_TRANSFORMATION, config),
                new NativeCalcOperator(spec),
                InternalTypeInfo.of(getOutputType()),
                input.getParallelism(),
                false);
        if (fedByLegacySourceThread(input)) {
            // A legacy source calls processElement on its own thread but endInput, timers and close
            // on the task thread; batches are confined to the thread that writes them.
            transformation.setChainingStrategy(ChainingStrategy.HEAD);
        }
        return transformation;
    }

    /** Whether the chain this operator would join starts with a legacy (own-thread) source. */
    private static boolean fedByLegacySourceThread(Transformation<?> input) {
        Transformation<?> t = input;
        while (t instanceof OneInputTransformation<?, ?> one) {
            t = one.getInputs().get(0);
        }
        return t instanceof LegacySourceTransformation;
    }
}
