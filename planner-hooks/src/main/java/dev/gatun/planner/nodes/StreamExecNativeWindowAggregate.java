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
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecWindowAggregate;
import org.apache.flink.table.runtime.groupwindow.NamedWindowProperty;
import org.apache.flink.table.types.logical.RowType;

/**
 * The exec node of a native one-phase window aggregate: a {@link StreamExecWindowAggregate} whose
 * transformation has the stock node's uid, description, parallelism and keying (its state key selector
 * and type over the input rows, so Flink hands the operator raw keyed state streams and routes key
 * groups on rescale), with the keyed island operator inside.
 *
 * <p>In a compiled plan it is a node of type {@value #TYPE_NAME}: the stock node's fields plus
 * {@code nativeLocalAggregate} ({@link NativeCalcSpec}). Where native cannot run when such a plan
 * executes, it translates as the stock node (whose state is Flink's, not the native operator's).
 */
@ExecNodeMetadata(
        name = StreamExecNativeWindowAggregate.TYPE_NAME,
        version = 1,
        consumedOptions = {"table.local-time-zone"},
        producedTransformations = StreamExecWindowAggregate.WINDOW_AGGREGATE_TRANSFORMATION,
        // its state is the native operator's own format (raw keyed state), new with this node
        minPlanVersion = FlinkVersion.v2_2,
        minStateVersion = FlinkVersion.v2_2)
public final class StreamExecNativeWindowAggregate extends StreamExecWindowAggregate {
    /** The node type in a compiled plan's JSON, followed by {@code _<version>}. */
    public static final String TYPE_NAME = "gatun-stream-exec-native-window-aggregate";

    @JsonProperty(StreamExecNativeLocalGroupAggregate.FIELD_NAME_NATIVE)
    private final NativeCalcSpec spec;

    private final int[] keys;

    public StreamExecNativeWindowAggregate(ReadableConfig tableConfig, int[] grouping, AggregateCall[] aggCalls,
                                           WindowingStrategy windowing, NamedWindowProperty[] namedWindowProperties,
                                           boolean needRetraction, InputProperty inputProperty, RowType outputType,
                                           String description, NativeCalcSpec spec) {
        this(ExecNodeContext.newNodeId(),
                PlanNodes.context(StreamExecNativeWindowAggregate.class),
                ExecNodeContext.newPersistedConfig(StreamExecNativeWindowAggregate.class, tableConfig),
                grouping,
                aggCalls,
                windowing,
                namedWindowProperties,
                needRetraction,
                Collections.singletonList(inputProperty),
                outputType,
                description,
                spec);
    }

    @JsonCreator
    public StreamExecNativeWindowAggregate(
            @JsonProperty(FIELD_NAME_ID) int id,
            @JsonProperty(FIELD_NAME_TYPE) ExecNodeContext context,
            @JsonProperty(FIELD_NAME_CONFIGURATION) ReadableConfig persistedConfig,
            @JsonProperty(FIELD_NAME_GROUPING) int[] grouping,
            @JsonProperty(FIELD_NAME_AGG_CALLS) AggregateCall[] aggCalls,
            @JsonProperty(FIELD_NAME_WINDOWING) WindowingStrategy windowing,
            @JsonProperty(FIELD_NAME_NAMED_WINDOW_PROPERTIES) NamedWindowProperty[] namedWindowProperties,
            @JsonProperty(FIELD_NAME_NEED_RETRACTION) Boolean needRetraction,
            @JsonProperty(FIELD_NAME_INPUT_PROPERTIES) List<InputProperty> inputProperties,
            @JsonProperty(FIELD_NAME_OUTPUT_TYPE) RowType outputType,
            @JsonProperty(FIELD_NAME_DESCRIPTION) String description,
            @JsonProperty(StreamExecNativeLocalGroupAggregate.FIELD_NAME_NATIVE) NativeCalcSpec spec) {
        super(id, context, persistedConfig, grouping, aggCalls, windowing, namedWindowProperties, needRetraction,
                inputProperties, outputType, description);
        this.keys = grouping.clone();
        this.spec = Objects.requireNonNull(spec,
                "a " + TYPE_NAME + " node without its " + StreamExecNativeLocalGroupAggregate.FIELD_NAME_NATIVE);
    }

    @SuppressWarnings("unchecked")
    @Override
    protected Transformation<RowData> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        if (config.isCompiled() && CompiledPlanFallback.reasonToRunStock(spec, config, getDescription()) != null) {
            return super.translateToPlanInternal(planner, config);
        }
        Transformation<RowData> input = (Transformation<RowData>) getInputEdges().get(0).translateToPlan(planner);
        return KeyedIslandTranslation.of(planner, input, createTransformationMeta(WINDOW_AGGREGATE_TRANSFORMATION, config), spec, keys,
                (RowType) getOutputType());
    }

    /** The stock window aggregate's uid, also where {@code table.exec.uid.format} names the node type. */
    @Override
    protected String createTransformationUid(String operatorName, ExecNodeConfig config) {
        return PlanNodes.context(StreamExecWindowAggregate.class).withId(getId())
                .generateUid(operatorName, config);
    }
}
