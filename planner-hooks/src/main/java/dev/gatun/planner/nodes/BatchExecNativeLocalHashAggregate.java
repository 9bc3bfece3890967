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
import org.apache.flink.table.planner.plan.nodes.exec.batch.BatchExecHashAggregate;
import org.apache.flink.table.types.logical.RowType;

/**
 * The exec node of a native local-hash-aggregate island in a batch job: a local
 * {@link BatchExecHashAggregate} (not merging, not final) whose transformation has the stock node's
 * uid, description, parallelism and chaining, with the island operator inside (it also does the work
 * of the Calc below, which stays in the job graph as a pass-through, {@link BatchExecFusedCalc}). It
 * asks for no managed memory: the island's groups live in native memory (the off-heap budget), and
 * it emits them when it holds {@link NativeCalcSpec#groupLimit()} of them. Never part of Flink's
 * operator-fusion code generation, which needs generated code.
 *
 * <p>In a compiled batch plan it is a node of type {@value #TYPE_NAME}: the stock hash aggregate's
 * fields plus {@code nativeLocalAggregate}; where native cannot run when such a plan executes, it
 * translates as the stock local hash aggregate, and the fused Calc below as the stock Calc.
 */
@ExecNodeMetadata(
        name = BatchExecNativeLocalHashAggregate.TYPE_NAME,
        version = 1,
        producedTransformations = BatchExecHashAggregate.HASH_AGGREGATE_TRANSFORMATION,
        minPlanVersion = FlinkVersion.v2_2,
        minStateVersion = FlinkVersion.v2_0)
public final class BatchExecNativeLocalHashAggregate extends BatchExecHashAggregate {
    /** The node type in a compiled plan's JSON, followed by {@code _<version>}. */
    public static final String TYPE_NAME = "gatun-batch-exec-native-local-hash-aggregate";

    @JsonProperty(StreamExecNativeLocalGroupAggregate.FIELD_NAME_NATIVE)
    private final NativeCalcSpec spec;
    /** The stock node's fields, for the stock translation (its own fields are private). */
    private final StockFields stockFields;

    private record StockFields(int[] grouping, int[] auxGrouping, AggregateCall[] aggCalls, RowType aggInputRowType,
                               boolean supportAdaptiveLocalHashAgg) {}

    public BatchExecNativeLocalHashAggregate(ReadableConfig tableConfig, int[] grouping, int[] auxGrouping,
                                             AggregateCall[] aggCalls, RowType aggInputRowType,
                                             boolean supportAdaptiveLocalHashAgg, InputProperty inputProperty,
                                             RowType outputType, String description, NativeCalcSpec spec) {
        this(ExecNodeContext.newNodeId(),
                PlanNodes.context(BatchExecNativeLocalHashAggregate.class),
                ExecNodeContext.newPersistedConfig(BatchExecNativeLocalHashAggregate.class, tableConfig),
                grouping,
                auxGrouping,
                aggCalls,
                aggInputRowType,
                false,
                false,
                supportAdaptiveLocalHashAgg,
                Collections.singletonList(inputProperty),
                outputType,
                description,
                spec);
    }

    @JsonCreator
    public BatchExecNativeLocalHashAggregate(
            @JsonProperty(FIELD_NAME_ID) int id,
            @JsonProperty(FIELD_NAME_TYPE) ExecNodeContext context,
            @JsonProperty(FIELD_NAME_CONFIGURATION) ReadableConfig persistedConfig,
            @JsonProperty(FIELD_NAME_GROUPING) int[] grouping,
            @JsonProperty(FIELD_NAME_AUX_GROUPING) int[] auxGrouping,
            @JsonProperty(FIELD_NAME_AGG_CALLS) AggregateCall[] aggCalls,
            @JsonProperty(FIELD_NAME_AGG_INPUT_ROW_TYPE) RowType aggInputRowType,
            @JsonProperty(FIELD_NAME_IS_MERGE) boolean isMerge,
            @JsonProperty(FIELD_NAME_IS_FINAL) boolean isFinal,
            @JsonProperty(FIELD_NAME_SUPPORT_ADAPTIVE_LOCAL_HASH_AGG) boolean supportAdaptiveLocalHashAgg,
            @JsonProperty(FIELD_NAME_INPUT_PROPERTIES) List<InputProperty> inputProperties,
            @JsonProperty(FIELD_NAME_OUTPUT_TYPE) RowType outputType,
            @JsonProperty(FIELD_NAME_DESCRIPTION) String description,
            @JsonProperty(StreamExecNativeLocalGroupAggregate.FIELD_NAME_NATIVE) NativeCalcSpec spec) {
        super(id, context, persistedConfig, grouping, auxGrouping, aggCalls, aggInputRowType, isMerge, isFinal,
                supportAdaptiveLocalHashAgg, inputProperties, outputType, description);
        if (isMerge || isFinal) {
            throw new IllegalArgumentException("a " + TYPE_NAME + " node is the local phase: isMerge and isFinal"
                    + " are false");
        }
        this.spec = Objects.requireNonNull(spec,
                "a " + TYPE_NAME + " node without its " + StreamExecNativeLocalGroupAggregate.FIELD_NAME_NATIVE);
        this.stockFields = new StockFields(grouping, auxGrouping, aggCalls, aggInputRowType,
                supportAdaptiveLocalHashAgg);
    }

    @Override
    public boolean supportFusionCodegen() {
        return false;
    }

    @SuppressWarnings("unchecked")
    @Override
    protected Transformation<RowData> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        // a plan compiled elsewhere or earlier may meet a JVM or config where native cannot run
        if (config.isCompiled() && CompiledPlanFallback.reasonToRunStock(spec, config, getDescription()) != null) {
            return stockAggregate(config).translateToPlan(planner);
        }
        Transformation<RowData> input = (Transformation<RowData>) getInputEdges().get(0).translateToPlan(planner);
        return FusedTranslation.island(input, createTransformationMeta(HASH_AGGREGATE_TRANSFORMATION, config), spec,
                (RowType) getOutputType());
    }

    /** The stock hash aggregate's uid, also where {@code table.exec.uid.format} names the node type. */
    @Override
    protected String createTransformationUid(String operatorName, ExecNodeConfig config) {
        return PlanNodes.context(BatchExecHashAggregate.class).withId(getId()).generateUid(operatorName, config);
    }

    /** The stock local hash aggregate this node stands for: same id, input, fields and description. */
    private BatchExecHashAggregate stockAggregate(ExecNodeConfig config) {
        StockFields f = stockFields;
        BatchExecHashAggregate stock = new BatchExecHashAggregate(getId(),
                PlanNodes.context(BatchExecHashAggregate.class), getPersistedConfig(), f.grouping(),
                f.auxGrouping(), f.aggCalls(), f.aggInputRowType(), false, false, f.supportAdaptiveLocalHashAgg(),
                getInputProperties(), (RowType) getOutputType(), getDescription());
        stock.setCompiled(config.isCompiled());
        stock.setInputEdges(getInputEdges());
        return stock;
    }
}
