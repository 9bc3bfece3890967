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
import org.apache.flink.table.planner.plan.nodes.exec.common.CommonExecCalc;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecCalc;
import org.apache.flink.table.types.logical.RowType;

/**
 * A Calc whose work a native island above it does (the island reads this Calc's input rows): a
 * pass-through operator with the Calc's identity, or the island itself where the island runs at
 * its bottom node ({@link FusedTranslation}). In a compiled
 * plan, a {@value #TYPE_NAME} node carries the stock Calc's fields and the island's spec, and
 * translates as the stock Calc wherever the island runs stock.
 */
@ExecNodeMetadata(
        name = StreamExecFusedCalc.TYPE_NAME,
        version = 1,
        producedTransformations = CommonExecCalc.CALC_TRANSFORMATION,
        minPlanVersion = FlinkVersion.v2_2,
        minStateVersion = FlinkVersion.v1_15)
public final class StreamExecFusedCalc extends StreamExecCalc
        implements FusedPlace.Holder {
    public static final String TYPE_NAME = "gatun-stream-exec-fused-calc";
    static final String FIELD_NAME_ISLAND = "fusedIntoIsland";

    @JsonProperty(FIELD_NAME_ISLAND)
    private final NativeCalcSpec island;
    /** Not in a compiled plan: a node restored from one never runs the island (see {@link FusedPlace}). */
    private final FusedPlace place;

    public StreamExecFusedCalc(ReadableConfig tableConfig, List<RexNode> projection, RexNode condition,
                               InputProperty inputProperty, RowType outputType, String description,
                               NativeCalcSpec island, FusedPlace place) {
        this(ExecNodeContext.newNodeId(), PlanNodes.context(StreamExecFusedCalc.class),
                ExecNodeContext.newPersistedConfig(StreamExecFusedCalc.class, tableConfig), projection, condition,
                Collections.singletonList(inputProperty), outputType, description, island, place);
    }

    @JsonCreator
    public StreamExecFusedCalc(
            @JsonProperty(FIELD_NAME_ID) int id,
            @JsonProperty(FIELD_NAME_TYPE) ExecNodeContext context,
            @JsonProperty(FIELD_NAME_CONFIGURATION) ReadableConfig persistedConfig,
            @JsonProperty(FIELD_NAME_PROJECTION) List<RexNode> projection,
            @JsonProperty(FIELD_NAME_CONDITION) RexNode condition,
            @JsonProperty(FIELD_NAME_INPUT_PROPERTIES) List<InputProperty> inputProperties,
            @JsonProperty(FIELD_NAME_OUTPUT_TYPE) RowType outputType,
            @JsonProperty(FIELD_NAME_DESCRIPTION) String description,
            @JsonProperty(FIELD_NAME_ISLAND) NativeCalcSpec island) {
        this(id, context, persistedConfig, projection, condition, inputProperties, outputType, description, island,
                island == null ? null : new FusedPlace(island));
    }

    private StreamExecFusedCalc(int id, ExecNodeContext context, ReadableConfig persistedConfig,
                                List<RexNode> projection, RexNode condition, List<InputProperty> inputProperties,
                                RowType outputType, String description, NativeCalcSpec island, FusedPlace place) {
        super(id, context, persistedConfig, projection, condition, inputProperties, outputType, description);
        this.island = Objects.requireNonNull(island, "a " + TYPE_NAME + " node without its " + FIELD_NAME_ISLAND);
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
                createTransformationMeta(CALC_TRANSFORMATION, config), config);
    }

    /** The stock Calc's uid, also where {@code table.exec.uid.format} names the node type. */
    @Override
    protected String createTransformationUid(String operatorName, ExecNodeConfig config) {
        return PlanNodes.context(StreamExecCalc.class).withId(getId()).generateUid(operatorName, config);
    }

    @Override
    public FusedPlace place() {
        return place;
    }
}
