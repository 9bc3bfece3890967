package dev.gatun.planner.nodes;

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
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeContext;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeMetadata;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecWatermarkAssigner;
import org.apache.flink.table.types.logical.RowType;

/**
 * A WatermarkAssigner whose work a native island above does (the island computes the rowtime and
 * watermark of every row and emits the watermarks where this assigner would): a pass-through
 * operator with the assigner's identity, or the island itself where it runs at its bottom node
 * ({@link FusedTranslation}). In a compiled plan, a {@value #TYPE_NAME} node carries the
 * stock assigner's fields and the island's spec, and translates as the stock assigner wherever the
 * island runs stock.
 */
@ExecNodeMetadata(
        name = StreamExecFusedWatermarkAssigner.TYPE_NAME,
        version = 1,
        producedTransformations = StreamExecWatermarkAssigner.WATERMARK_ASSIGNER_TRANSFORMATION,
        minPlanVersion = FlinkVersion.v2_2,
        minStateVersion = FlinkVersion.v1_15)
public final class StreamExecFusedWatermarkAssigner extends StreamExecWatermarkAssigner
        implements FusedPlace.Holder {
    public static final String TYPE_NAME = "gatun-stream-exec-fused-watermark-assigner";

    @JsonProperty(StreamExecFusedCalc.FIELD_NAME_ISLAND)
    private final NativeCalcSpec island;
    /** Not in a compiled plan: a node restored from one never runs the island (see {@link FusedPlace}). */
    private final FusedPlace place;

    public StreamExecFusedWatermarkAssigner(ReadableConfig tableConfig, RexNode watermarkExpr, int rowtimeFieldIndex,
                                            InputProperty inputProperty, RowType outputType, String description,
                                            NativeCalcSpec island, FusedPlace place) {
        this(ExecNodeContext.newNodeId(), PlanNodes.context(StreamExecFusedWatermarkAssigner.class),
                ExecNodeContext.newPersistedConfig(StreamExecFusedWatermarkAssigner.class, tableConfig),
                watermarkExpr, rowtimeFieldIndex, Collections.singletonList(inputProperty), outputType, description,
                island, place);
    }

    @JsonCreator
    public StreamExecFusedWatermarkAssigner(
            @JsonProperty(FIELD_NAME_ID) int id,
            @JsonProperty(FIELD_NAME_TYPE) ExecNodeContext context,
            @JsonProperty(FIELD_NAME_CONFIGURATION) ReadableConfig persistedConfig,
            @JsonProperty(FIELD_NAME_WATERMARK_EXPR) RexNode watermarkExpr,
            @JsonProperty(FIELD_NAME_ROWTIME_FIELD_INDEX) int rowtimeFieldIndex,
            @JsonProperty(FIELD_NAME_INPUT_PROPERTIES) List<InputProperty> inputProperties,
            @JsonProperty(FIELD_NAME_OUTPUT_TYPE) RowType outputType,
            @JsonProperty(FIELD_NAME_DESCRIPTION) String description,
            @JsonProperty(StreamExecFusedCalc.FIELD_NAME_ISLAND) NativeCalcSpec island) {
        this(id, context, persistedConfig, watermarkExpr, rowtimeFieldIndex, inputProperties, outputType, description,
                island, island == null ? null : new FusedPlace(island));
    }

    private StreamExecFusedWatermarkAssigner(int id, ExecNodeContext context, ReadableConfig persistedConfig,
                                             RexNode watermarkExpr, int rowtimeFieldIndex,
                                             List<InputProperty> inputProperties, RowType outputType,
                                             String description, NativeCalcSpec island, FusedPlace place) {
        super(id, context, persistedConfig, watermarkExpr, rowtimeFieldIndex, inputProperties, outputType,
                description);
        this.island = Objects.requireNonNull(island,
                "a " + TYPE_NAME + " node without its " + StreamExecFusedCalc.FIELD_NAME_ISLAND);
        this.place = place;
    }

    @SuppressWarnings("unchecked")
    @Override
    protected Transformation<RowData> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        if (!FusedTranslation.runsFused(island, config, getDescription())) {
            return super.translateToPlanInternal(planner, config);
        }
        Transformation<RowData> input = (Transformation<RowData>) getInputEdges().get(0).translateToPlan(planner);
        return FusedTranslation.fusedNode(place, input,
                createTransformationMeta(WATERMARK_ASSIGNER_TRANSFORMATION, config), config);
    }

    /** The stock assigner's uid, also where {@code table.exec.uid.format} names the node type. */
    @Override
    protected String createTransformationUid(String operatorName, ExecNodeConfig config) {
        return PlanNodes.context(StreamExecWatermarkAssigner.class).withId(getId()).generateUid(operatorName, config);
    }

    @Override
    public FusedPlace place() {
        return place;
    }
}
