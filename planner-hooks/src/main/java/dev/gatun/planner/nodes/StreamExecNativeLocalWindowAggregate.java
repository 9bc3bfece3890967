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
import org.apache.flink.table.planner.plan.logical.WindowingStrategy;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeContext;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeMetadata;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecLocalWindowAggregate;
import org.apache.flink.table.types.logical.RowType;

/**
 * The exec node of a native local window-aggregate island: a {@link StreamExecLocalWindowAggregate}
 * whose transformation has the stock node's uid, description, parallelism and chaining, with the
 * island operator inside, or, where it absorbed the nodes below it, a pass-through of the rows
 * the island at the bottom of them emits ({@link FusedTranslation}).
 *
 * <p>In a compiled plan it is a node of type {@value #TYPE_NAME}: the stock local window aggregate's
 * fields plus {@code nativeLocalAggregate} ({@link NativeCalcSpec}). Where native cannot run when such
 * a plan executes, it translates as the stock local window aggregate it carries.
 */
@ExecNodeMetadata(
        name = StreamExecNativeLocalWindowAggregate.TYPE_NAME,
        version = 1,
        consumedOptions = {"table.local-time-zone"},
        producedTransformations = StreamExecLocalWindowAggregate.LOCAL_WINDOW_AGGREGATE_TRANSFORMATION,
        // the operator holds no state (it empties before each barrier) and its uid is the stock one
        minPlanVersion = FlinkVersion.v2_2,
        minStateVersion = FlinkVersion.v1_15)
public final class StreamExecNativeLocalWindowAggregate extends StreamExecLocalWindowAggregate {
    /** The node type in a compiled plan's JSON, followed by {@code _<version>}. */
    public static final String TYPE_NAME = "gatun-stream-exec-native-local-window-aggregate";

    @JsonProperty(StreamExecNativeLocalGroupAggregate.FIELD_NAME_NATIVE)
    private final NativeCalcSpec spec;

    public StreamExecNativeLocalWindowAggregate(ReadableConfig tableConfig, int[] grouping, AggregateCall[] aggCalls,
                                                WindowingStrategy windowing, InputProperty inputProperty,
                                                RowType outputType, String description, NativeCalcSpec spec) {
        this(ExecNodeContext.newNodeId(),
                PlanNodes.context(StreamExecNativeLocalWindowAggregate.class),
                ExecNodeContext.newPersistedConfig(StreamExecNativeLocalWindowAggregate.class, tableConfig),
                grouping,
                aggCalls,
                windowing,
                false, // insert-only input: nothing retracts
                Collections.singletonList(inputProperty),
                outputType,
                description,
                spec);
    }

    @JsonCreator
    public StreamExecNativeLocalWindowAggregate(
            @JsonProperty(FIELD_NAME_ID) int id,
            @JsonProperty(FIELD_NAME_TYPE) ExecNodeContext context,
            @JsonProperty(FIELD_NAME_CONFIGURATION) ReadableConfig persistedConfig,
            @JsonProperty(FIELD_NAME_GROUPING) int[] grouping,
            @JsonProperty(FIELD_NAME_AGG_CALLS) AggregateCall[] aggCalls,
            @JsonProperty(FIELD_NAME_WINDOWING) WindowingStrategy windowing,
            @JsonProperty(FIELD_NAME_NEED_RETRACTION) Boolean needRetraction,
            @JsonProperty(FIELD_NAME_INPUT_PROPERTIES) List<InputProperty> inputProperties,
            @JsonProperty(FIELD_NAME_OUTPUT_TYPE) RowType outputType,
            @JsonProperty(FIELD_NAME_DESCRIPTION) String description,
            @JsonProperty(StreamExecNativeLocalGroupAggregate.FIELD_NAME_NATIVE) NativeCalcSpec spec) {
        super(id, context, persistedConfig, grouping, aggCalls, windowing, needRetraction, inputProperties,
                outputType, description);
        this.spec = Objects.requireNonNull(spec,
                "a " + TYPE_NAME + " node without its " + StreamExecNativeLocalGroupAggregate.FIELD_NAME_NATIVE);
    }

    @Override
    protected Transformation<RowData> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        // a plan compiled elsewhere or earlier may meet a JVM or config where native cannot run
        if (config.isCompiled() && CompiledPlanFallback.reasonToRunStock(spec, config, getDescription()) != null) {
            return super.translateToPlanInternal(planner, config);
        }
        return FusedTranslation.localAggregate(this, spec, planner,
                createTransformationMeta(LOCAL_WINDOW_AGGREGATE_TRANSFORMATION, config), config,
                (RowType) getOutputType());
    }

    /** The stock local window aggregate's uid, also where {@code table.exec.uid.format} names the node type. */
    @Override
    protected String createTransformationUid(String operatorName, ExecNodeConfig config) {
        return PlanNodes.context(StreamExecLocalWindowAggregate.class).withId(getId())
                .generateUid(operatorName, config);
    }
}
