package dev.gatun.planner.nodes;

import dev.gatun.planner.runtime.NativeCalcSpec;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.flink.FlinkVersion;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.annotation.JsonCreator;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.annotation.JsonProperty;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.delegation.PlannerBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeContext;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeMetadata;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecLocalGroupAggregate;
import org.apache.flink.table.types.logical.RowType;

/**
 * The exec node of a native local-aggregate island: a {@link StreamExecLocalGroupAggregate} whose
 * transformation has the stock node's uid, description, parallelism and chaining. The island also
 * does the work of the Calc (and mini-batch assigner) below, which stay in the job graph: then the
 * island runs at the lowest of them and this node hands its rows on ({@link FusedTranslation}).
 *
 * <p>In a compiled plan ({@code COMPILE PLAN}) it is a node of type {@value #TYPE_NAME}: the stock
 * local aggregate's fields plus {@code nativeLocalAggregate} ({@link NativeCalcSpec}). Where native
 * cannot run when such a plan executes, it translates as the stock local aggregate it carries, and
 * the fused Calc below as the stock Calc (both decide alike: same spec, config and library).
 */
@ExecNodeMetadata(
        name = StreamExecNativeLocalGroupAggregate.TYPE_NAME,
        version = 1,
        consumedOptions = {"table.exec.mini-batch.enabled", "table.exec.mini-batch.size"},
        producedTransformations = StreamExecLocalGroupAggregate.LOCAL_GROUP_AGGREGATE_TRANSFORMATION,
        // the operator holds no state (it empties before each barrier) and its uid is the stock one
        minPlanVersion = FlinkVersion.v2_2,
        minStateVersion = FlinkVersion.v1_15)
public final class StreamExecNativeLocalGroupAggregate extends StreamExecLocalGroupAggregate {
    /** The node type in a compiled plan's JSON, followed by {@code _<version>}. */
    public static final String TYPE_NAME = "gatun-stream-exec-native-local-group-aggregate";
    static final String FIELD_NAME_NATIVE = "nativeLocalAggregate";

    @JsonProperty(FIELD_NAME_NATIVE)
    private final NativeCalcSpec spec;

    public StreamExecNativeLocalGroupAggregate(ReadableConfig tableConfig, int[] grouping, AggregateCall[] aggCalls,
                                               InputProperty inputProperty, RowType outputType,
                                               String description, NativeCalcSpec spec) {
        this(ExecNodeContext.newNodeId(),
                PlanNodes.context(StreamExecNativeLocalGroupAggregate.class),
                ExecNodeContext.newPersistedConfig(StreamExecNativeLocalGroupAggregate.class, tableConfig),
                grouping,
                aggCalls,
                new boolean[aggCalls.length], // insert-only input: nothing retracts
                false,
                Collections.singletonList(inputProperty),
                outputType,
                description,
                spec);
    }

    @JsonCreator
    public StreamExecNativeLocalGroupAggregate(
            @JsonProperty(FIELD_NAME_ID) int id,
            @JsonProperty(FIELD_NAME_TYPE) ExecNodeContext context,
            @JsonProperty(FIELD_NAME_CONFIGURATION) ReadableConfig persistedConfig,
            @JsonProperty(FIELD_NAME_GROUPING) int[] grouping,
            @JsonProperty(FIELD_NAME_AGG_CALLS) AggregateCall[] aggCalls,
            @JsonProperty(FIELD_NAME_AGG_CALL_NEED_RETRACTIONS) boolean[] aggCallNeedRetractions,
            @JsonProperty(FIELD_NAME_NEED_RETRACTION) boolean needRetraction,
            @JsonProperty(FIELD_NAME_INPUT_PROPERTIES) List<InputProperty> inputProperties,
            @JsonProperty(FIELD_NAME_OUTPUT_TYPE) RowType outputType,
            @JsonProperty(FIELD_NAME_DESCRIPTION) String description,
            @JsonProperty(FIELD_NAME_NATIVE) NativeCalcSpec spec) {
        super(id, context, persistedConfig, grouping, aggCalls, aggCallNeedRetractions, needRetraction,
                inputProperties, outputType, description);
        this.spec = Objects.requireNonNull(spec, "a " + TYPE_NAME + " node without its " + FIELD_NAME_NATIVE);
    }

    @Override
    protected Transformation<RowData> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        // a plan compiled elsewhere or earlier may meet a JVM or config where native cannot run
        if (config.isCompiled() && CompiledPlanFallback.reasonToRunStock(spec, config, getDescription()) != null) {
            return super.translateToPlanInternal(planner, config);
        }
        return FusedTranslation.localAggregate(this, spec, planner,
                createTransformationMeta(LOCAL_GROUP_AGGREGATE_TRANSFORMATION, config), config,
                (RowType) getOutputType());
    }

    /** The stock local aggregate's uid, also where {@code table.exec.uid.format} names the node type. */
    @Override
    protected String createTransformationUid(String operatorName, ExecNodeConfig config) {
        return PlanNodes.context(StreamExecLocalGroupAggregate.class).withId(getId())
                .generateUid(operatorName, config);
    }
}
