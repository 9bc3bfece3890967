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
import org.apache.flink.table.planner.plan.nodes.exec.ExecEdge;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeContext;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeMetadata;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.exec.batch.BatchExecCalc;
import org.apache.flink.table.planner.plan.nodes.exec.common.CommonExecCalc;
import org.apache.flink.table.types.logical.RowType;

/**
 * The exec node of a native Calc in a batch job: a {@link BatchExecCalc} whose transformation is
 * the stock Calc's (uid, description, parallelism, chaining) with {@link dev.gatun.planner.runtime.IslandOperator} inside, the
 * operator streaming islands run. The input is not borrowed (docs/runtime.md, "Entry borrowing"):
 * Flink's batch executor always enables object reuse, so a chained batch Calc gets no copy to skip.
 * Never part of Flink's operator-fusion code generation, which needs generated code.
 *
 * <p>In a compiled batch plan it is a node of type {@value #TYPE_NAME} with the stock Calc's fields
 * plus {@code nativeCalc}; where it cannot run natively it translates as the stock Calc it carries,
 * as {@link StreamExecNativeCalc} does.
 */
@ExecNodeMetadata(
        name = BatchExecNativeCalc.TYPE_NAME,
        version = 1,
        producedTransformations = CommonExecCalc.CALC_TRANSFORMATION,
        minPlanVersion = FlinkVersion.v2_2,
        minStateVersion = FlinkVersion.v2_0)
public final class BatchExecNativeCalc extends BatchExecCalc {
    /** The node type in a compiled plan's JSON, followed by {@code _<version>}. */
    public static final String TYPE_NAME = "gatun-batch-exec-native-calc";

    @JsonProperty(StreamExecNativeCalc.FIELD_NAME_NATIVE_CALC)
    private final NativeCalcSpec spec;

    public BatchExecNativeCalc(ReadableConfig tableConfig, List<RexNode> projection, RexNode condition,
                               InputProperty inputProperty, RowType outputType, String description,
                               NativeCalcSpec spec) {
        this(ExecNodeContext.newNodeId(),
                PlanNodes.context(BatchExecNativeCalc.class),
                ExecNodeContext.newPersistedConfig(BatchExecNativeCalc.class, tableConfig),
                projection,
                condition,
                Collections.singletonList(inputProperty),
                outputType,
                description,
                spec);
    }

    @JsonCreator
    public BatchExecNativeCalc(
            @JsonProperty(FIELD_NAME_ID) int id,
            @JsonProperty(FIELD_NAME_TYPE) ExecNodeContext context,
            @JsonProperty(FIELD_NAME_CONFIGURATION) ReadableConfig persistedConfig,
            @JsonProperty(FIELD_NAME_PROJECTION) List<RexNode> projection,
            @JsonProperty(FIELD_NAME_CONDITION) RexNode condition,
            @JsonProperty(FIELD_NAME_INPUT_PROPERTIES) List<InputProperty> inputProperties,
            @JsonProperty(FIELD_NAME_OUTPUT_TYPE) RowType outputType,
            @JsonProperty(FIELD_NAME_DESCRIPTION) String description,
            @JsonProperty(StreamExecNativeCalc.FIELD_NAME_NATIVE_CALC) NativeCalcSpec spec) {
        super(id, context, persistedConfig, projection, condition, inputProperties, outputType, description);
        this.spec = Objects.requireNonNull(spec,
                "a " + TYPE_NAME + " node without its " + StreamExecNativeCalc.FIELD_NAME_NATIVE_CALC);
    }

    @Override
    public boolean supportFusionCodegen() {
        return false;
    }

    @SuppressWarnings("unchecked")
    @Override
    protected Transformation<RowData> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        if (config.isCompiled() && CompiledPlanFallback.reasonToRunStock(spec, config, getDescription()) != null) {
            return stockCalc(config).translateToPlan(planner);
        }
        ExecEdge inputEdge = getInputEdges().get(0);
        Transformation<RowData> input = (Transformation<RowData>) inputEdge.translateToPlan(planner);
        return FusedTranslation.island(input, createTransformationMeta(CALC_TRANSFORMATION, config), spec,
                (RowType) getOutputType());
    }

    /** The uid the stock Calc of this node id gets, also where {@code table.exec.uid.format} names the type. */
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
