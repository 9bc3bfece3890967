package dev.gatun.planner.nodes;

import dev.gatun.planner.runtime.IslandOperator;
import dev.gatun.planner.runtime.NativeCalcSpec;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.apache.calcite.rex.RexNode;
import org.apache.flink.FlinkVersion;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.annotation.JsonCreator;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.annotation.JsonProperty;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.delegation.PlannerBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecEdge;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeContext;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeMetadata;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.exec.common.CommonExecCalc;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecCalc;
import org.apache.flink.table.planner.plan.nodes.exec.utils.ExecNodeUtil;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/**
 * The exec node of a native Calc. It is a {@link StreamExecCalc} whose transformation has the
 * Calc's uid and description, so the job graph keeps the Calc's operator identity and savepoints
 * restore with Gatun on or off; only the operator inside differs.
 *
 * <p>In a compiled plan ({@code COMPILE PLAN}) it is a node of type {@value #TYPE_NAME}: the stock
 * Calc's fields (projection, condition, ...) plus {@code nativeCalc} ({@link NativeCalcSpec}).
 * {@link PlanNodes#register()} makes Flink's plan reader know the type. When such a plan runs
 * where the native Calc cannot ({@code gatun.native.enabled=false}, no native library, a Substrait
 * plan this library refuses), the node translates as the stock Calc it carries, and logs why.
 */
@ExecNodeMetadata(
        name = StreamExecNativeCalc.TYPE_NAME,
        version = 1,
        producedTransformations = CommonExecCalc.CALC_TRANSFORMATION,
        // plans name this node since Gatun on Flink 2.2; its operator has no state, and its uid is
        // the stock Calc's, so state versions are those of stream-exec-calc
        minPlanVersion = FlinkVersion.v2_2,
        minStateVersion = FlinkVersion.v1_15)
public final class StreamExecNativeCalc extends StreamExecCalc {
    /** The node type in a compiled plan's JSON, followed by {@code _<version>}. */
    public static final String TYPE_NAME = "gatun-stream-exec-native-calc";
    static final String FIELD_NAME_NATIVE_CALC = "nativeCalc";

    @JsonProperty(FIELD_NAME_NATIVE_CALC)
    private final NativeCalcSpec spec;

    public StreamExecNativeCalc(ReadableConfig tableConfig, List<RexNode> projection, RexNode condition,
                                InputProperty inputProperty, RowType outputType, String description,
                                NativeCalcSpec spec) {
        this(ExecNodeContext.newNodeId(),
                PlanNodes.context(StreamExecNativeCalc.class),
                ExecNodeContext.newPersistedConfig(StreamExecNativeCalc.class, tableConfig),
                projection,
                condition,
                Collections.singletonList(inputProperty),
                outputType,
                description,
                spec);
    }

    @JsonCreator
    public StreamExecNativeCalc(
            @JsonProperty(FIELD_NAME_ID) int id,
            @JsonProperty(FIELD_NAME_TYPE) ExecNodeContext context,
            @JsonProperty(FIELD_NAME_CONFIGURATION) ReadableConfig persistedConfig,
            @JsonProperty(FIELD_NAME_PROJECTION) List<RexNode> projection,
            @JsonProperty(FIELD_NAME_CONDITION) RexNode condition,
            @JsonProperty(FIELD_NAME_INPUT_PROPERTIES) List<InputProperty> inputProperties,
            @JsonProperty(FIELD_NAME_OUTPUT_TYPE) RowType outputType,
            @JsonProperty(FIELD_NAME_DESCRIPTION) String description,
            @JsonProperty(FIELD_NAME_NATIVE_CALC) NativeCalcSpec spec) {
        super(id, context, persistedConfig, projection, condition, inputProperties, outputType, description);
        this.spec = Objects.requireNonNull(spec, "a " + TYPE_NAME + " node without its " + FIELD_NAME_NATIVE_CALC);
    }

    @SuppressWarnings("unchecked")
    @Override
    protected Transformation<RowData> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        // a plan compiled elsewhere or earlier may meet a JVM or config where native cannot run
        if (config.isCompiled()) {
            String reason = CompiledPlanFallback.reasonToRunStock(spec, config, getDescription());
            if (reason != null) {
                return stockCalc(config).translateToPlan(planner);
            }
        }
        ExecEdge inputEdge = getInputEdges().get(0);
        Transformation<RowData> input = FusedTranslation.borrowed(
                (Transformation<RowData>) inputEdge.translateToPlan(planner), config);
        // the same transformation as StreamExecCalc's (metadata, parallelism, chaining) with the
        // native operator inside: operator IDs and chains equal stock Flink's, also after legacy sources
        return ExecNodeUtil.createOneInputTransformation(
                input,
                createTransformationMeta(CALC_TRANSFORMATION, config),
                new IslandOperator(spec),
                InternalTypeInfo.of(getOutputType()),
                input.getParallelism(),
                false);
    }

    /**
     * The uid the stock Calc of this node id gets: {@code table.exec.uid.format} may name the
     * node type ({@code <type>}), and ours must still be {@code stream-exec-calc}'s.
     */
    @Override
    protected String createTransformationUid(String operatorName, ExecNodeConfig config) {
        return PlanNodes.context(StreamExecCalc.class).withId(getId()).generateUid(operatorName, config);
    }

    /** The stock Calc this node stands for: same id, input, fields and description. */
    private StreamExecCalc stockCalc(ExecNodeConfig config) {
        StreamExecCalc stock = new StreamExecCalc(getId(), PlanNodes.context(StreamExecCalc.class),
                getPersistedConfig(), projection, condition, getInputProperties(), (RowType) getOutputType(),
                getDescription());
        stock.setCompiled(config.isCompiled());
        stock.setInputEdges(getInputEdges());
        return stock;
    }
}
