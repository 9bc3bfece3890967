package dev.gatun.planner.nodes;

import dev.gatun.planner.runtime.KeyedIslandOperator;
import dev.gatun.planner.runtime.NativeCalcSpec;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.streaming.api.transformations.OneInputTransformation;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.delegation.PlannerBase;
import org.apache.flink.table.planner.plan.nodes.exec.utils.ExecNodeUtil;
import org.apache.flink.table.planner.plan.nodes.exec.utils.TransformationMetadata;
import org.apache.flink.table.planner.plan.utils.KeySelectorUtil;
import org.apache.flink.table.runtime.keyselector.RowDataKeySelector;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/**
 * The transformation of a native window aggregate (global or one phase): its keyed island operator
 * at the input's parallelism, keyed by the group keys over its input rows as the stock operator is,
 * so Flink hands it raw keyed state streams and routes key groups on rescale.
 */
final class KeyedIslandTranslation {
    private KeyedIslandTranslation() {}

    /**
     * @param outputType the aggregate node's row type; the island emits the absorbed Calc's rows
     *     instead where it projects its exit (the Calc above then hands them through)
     */
    static Transformation<RowData> of(PlannerBase planner, Transformation<RowData> input, TransformationMetadata meta,
                                      NativeCalcSpec spec, int[] keys, RowType outputType) {
        RowType emitted = spec.exitProjection() == null ? outputType : spec.exitType();
        RowDataKeySelector selector = KeySelectorUtil.getRowDataSelector(planner.getFlinkContext().getClassLoader(),
                keys, InternalTypeInfo.of(spec.inputType()));
        OneInputTransformation<RowData, RowData> transform = ExecNodeUtil.createOneInputTransformation(
                input, meta, new KeyedIslandOperator(spec), InternalTypeInfo.of(emitted), input.getParallelism(),
                false);
        transform.setStateKeySelector(selector);
        transform.setStateKeyType(selector.getProducedType());
        return transform;
    }
}
