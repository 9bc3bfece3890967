package dev.gatun.planner.rewrite;

import dev.gatun.planner.GatunOptions;
import org.apache.calcite.rel.RelNode;
import org.apache.flink.table.api.TableConfig;
import org.apache.flink.table.planner.plan.optimize.program.BatchOptimizeContext;
import org.apache.flink.table.planner.plan.optimize.program.FlinkBatchProgram;
import org.apache.flink.table.planner.plan.optimize.program.FlinkChainedProgram;

/**
 * The batch counterpart of {@link GatunStreamProgram}: Flink's own batch optimization, built per
 * query from the table config, then the same rewrite of admitted Calcs and local (hash) aggregates
 * into native islands.
 */
public final class GatunBatchProgram extends FlinkChainedProgram<BatchOptimizeContext> {

    @Override
    public RelNode optimize(RelNode root, BatchOptimizeContext context) {
        TableConfig config = context.getTableConfig();
        RelNode optimized = FlinkBatchProgram.buildProgram(config).optimize(root, context);
        if (!config.get(GatunOptions.NATIVE_ENABLED)) {
            return optimized;
        }
        return new NativeCalcRewriter(new CalcAdmission(config),
                config.get(GatunOptions.LOCAL_AGGREGATE_ENABLED) ? new LocalAggregateAdmission(config) : null, null)
                .rewrite(optimized);
    }
}
