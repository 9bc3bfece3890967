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
import org.apache.flink.table.planner.plan.nodes.exec.batch.BatchExecCalc;
import org.apache.flink.table.planner.plan.nodes.exec.common.CommonExecCalc;
import org.apache.flink.table.types.logical.RowType;

/**
 * A batch Calc that the native local hash aggregate above does the work of: a pass-through
 * operator with the stock Calc's identity. In a compiled plan, a {@value #TYPE_NAME} node carries
 * the stock Calc's fields and the island's spec, and translates as the stock Calc wherever the
 * island runs stock ({@link StreamExecFusedCalc} is its streaming counterpart).
 */
@ExecNodeMetadata(
        name = BatchExecFusedCalc.TYPE_NAME,
        version = 1,
        producedTransformations = CommonExecCalc.CALC_TRANSFORMATION,
        minPlanVersion = FlinkVersion.v2_2,
        minStateVersion = FlinkVersion.v2_0)
public final class BatchExecFusedCalc extends BatchExecCalc {
    public static final String TYPE_NAME = "gatun-batch-exec-fused-calc";

    @JsonProperty(StreamExecFusedCalc.FIELD_NAME_ISLAND)
    private final NativeCalcSpec island;

    public BatchExecFusedCalc(ReadableConfig tableConfig, List<RexNode> projection, RexNode condition,
                              InputProperty inputProperty, RowType outputType, String description,
                              NativeCalcSpec island) {
        this(ExecNodeContext.newNodeId(), PlanNodes.context(BatchExecFusedCalc.class),
                ExecNodeContext.newPersistedConfig(BatchExecFusedCalc.class, tableConfig), projection, condition,
                Collections.singletonList(inputProperty), outputType, description, island);
    }

    @JsonCreator
    public BatchExecFusedCalc(
            @JsonProperty(FIELD_NAME_ID) int id,
            @JsonProperty(FIELD_NAME_TYPE) ExecNodeContext context,
            @JsonProperty(FIELD_NAME_CONFIGURATION) ReadableConfig persistedConfig,
            @JsonProperty(FIELD_NAME_PROJECTION) List<RexNode> projection,
            @JsonProperty(FIELD_NAME_CONDITION) RexNode condition,
            @JsonProperty(FIELD_NAME_INPUT_PROPERTIES) List<InputProperty> inputProperties,
            @JsonProperty(FIELD_NAME_OUTPUT_TYPE) RowType outputType,
            @JsonProperty(FIELD_NAME_DESCRIPTION) String description,
            @JsonProperty(StreamExecFusedCalc.FIELD_NAME_ISLAND) NativeCalcSpec island) {
        super(id, context, persistedConfig, projection, condition, inputProperties, outputType, description);
        this.island = Objects.requireNonNull(island,
                "a " + TYPE_NAME + " node without its " + StreamExecFusedCalc.FIELD_NAME_ISLAND);
    }

    @Override
    public boolean supportFusionCodegen() {
        return false;
    }

    @SuppressWarnings("unchecked")
    @Override
    protected Transformation<RowData> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        if (!FusedTranslation.runsFused(island, config, getDescription())) {
            return stockCalc(config).translateToPlan(planner);
        }
        Transformation<RowData> input = (Transformation<RowData>) getInputEdges().get(0).translateToPlan(planner);
        return FusedTranslation.batchPassThrough(input, createTransformationMeta(CALC_TRANSFORMATION, config));
    }

    /** The stock Calc's uid, also where {@code table.exec.uid.format} names the node type. */
    @Override
    protected String createTransformationUid(String operatorName, ExecNodeConfig config) {
        return PlanNodes.context(BatchExecCalc.class).withId(getId()).generateUid(operatorName, config);
    }

    /** The stock Calc this node stands for: same id, input, fields and description. */
    private BatchExecCalc stockCalc(ExecNodeConfig config) {
        BatchExecCalc stock = new BatchExecCalc(getId(), PlanNodes.context(BatchExecCalc.class), getPersistedConfig(),
                projection, condition, getInputProperties(), (RowType) getOutputType(), getDescription());
        stock.setCompiled(config.isCompiled());
        stock.setInputEdges(getInputEdges());
        return stock;
    }
}
