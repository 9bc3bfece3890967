package dev.gatun.planner.nodes;

import dev.gatun.planner.GatunOptions;
import dev.gatun.planner.runtime.BorrowedInput;
import dev.gatun.planner.runtime.IslandOperator;
import dev.gatun.planner.runtime.NativeCalcSpec;
import java.util.Collections;
import java.util.Objects;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.flink.FlinkVersion;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.annotation.JsonIgnore;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.delegation.PlannerBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeContext;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeMetadata;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecLocalGroupAggregate;
import org.apache.flink.table.planner.plan.nodes.exec.utils.ExecNodeUtil;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/**
 * The exec node of a native local-aggregate island: a {@link StreamExecLocalGroupAggregate} whose
 * transformation has the stock node's uid, description, parallelism and chaining, with the island
 * operator inside (it also does the work of the Calc below, which stays in the job graph as a
 * pass-through, {@link StreamExecFusedCalc}).
 *
 * <p>It carries the stock node's {@link ExecNodeMetadata}, so a compiled plan ({@code COMPILE PLAN})
 * writes it as the stock local aggregate, and the fused Calc below translates as the stock Calc
 * when run from a compiled plan: compiled plans run these aggregates on Flink (for now).
 */
@ExecNodeMetadata(
        name = "stream-exec-local-group-aggregate",
        version = 1,
        consumedOptions = {"table.exec.mini-batch.enabled", "table.exec.mini-batch.size"},
        producedTransformations = StreamExecLocalGroupAggregate.LOCAL_GROUP_AGGREGATE_TRANSFORMATION,
        minPlanVersion = FlinkVersion.v1_15,
        minStateVersion = FlinkVersion.v1_15)
public final class StreamExecNativeLocalGroupAggregate extends StreamExecLocalGroupAggregate {
    @JsonIgnore
    private final NativeCalcSpec spec;

    public StreamExecNativeLocalGroupAggregate(ReadableConfig tableConfig, int[] grouping, AggregateCall[] aggCalls,
                                               InputProperty inputProperty, RowType outputType,
                                               String description, NativeCalcSpec spec) {
        super(ExecNodeContext.newNodeId(),
                PlanNodes.context(StreamExecLocalGroupAggregate.class),
                ExecNodeContext.newPersistedConfig(StreamExecLocalGroupAggregate.class, tableConfig),
                grouping,
                aggCalls,
                new boolean[aggCalls.length], // insert-only input: nothing retracts
                false,
                Collections.singletonList(inputProperty),
                outputType,
                description);
        this.spec = Objects.requireNonNull(spec, "spec");
    }

    @SuppressWarnings("unchecked")
    @Override
    protected Transformation<RowData> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        Transformation<RowData> input = (Transformation<RowData>) getInputEdges().get(0).translateToPlan(planner);
        if (config.get(GatunOptions.ENTRY_BORROWING)) {
            input = BorrowedInput.over(input);
        }
        return ExecNodeUtil.createOneInputTransformation(
                input,
                createTransformationMeta(LOCAL_GROUP_AGGREGATE_TRANSFORMATION, config),
                new IslandOperator(spec),
                InternalTypeInfo.of(getOutputType()),
                input.getParallelism(),
                false);
    }

    /** The stock local aggregate's uid, also where {@code table.exec.uid.format} names the node type. */
    @Override
    protected String createTransformationUid(String operatorName, ExecNodeConfig config) {
        return PlanNodes.context(StreamExecLocalGroupAggregate.class).withId(getId())
                .generateUid(operatorName, config);
    }
}
