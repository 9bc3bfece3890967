package dev.gatun.planner.rewrite;

import dev.gatun.planner.GatunOptions;
import org.apache.calcite.rel.RelNode;
import org.apache.flink.table.api.TableConfig;
import org.apache.flink.table.planner.plan.optimize.program.FlinkChainedProgram;
import org.apache.flink.table.planner.plan.optimize.program.FlinkStreamProgram;
import org.apache.flink.table.planner.plan.optimize.program.StreamOptimizeContext;

/**
 * Flink's own stream optimization, then Gatun's rewrite of admitted Calcs into native islands.
 * Flink's program is built per query from the table config, exactly as the planner would
 * build it without Gatun, so every {@code gatun.*} and Flink key is read at planning time.
 */
public final class GatunStreamProgram extends FlinkChainedProgram<StreamOptimizeContext> {

    @Override
    public RelNode optimize(RelNode root, StreamOptimizeContext context) {
        TableConfig config = context.getTableConfig();
        RelNode optimized = FlinkStreamProgram.buildProgram(config).optimize(root, context);
        if (!config.get(GatunOptions.NATIVE_ENABLED)) {
            return optimized;
        }
        return new NativeCalcRewriter(new CalcAdmission(config),
                config.get(GatunOptions.LOCAL_AGGREGATE_ENABLED) ? new LocalAggregateAdmission(config) : null,
                config.get(GatunOptions.WINDOW_AGGREGATE_ENABLED) ? new WindowAggregateAdmission(config) : null)
                .rewrite(optimized);
    }
}
