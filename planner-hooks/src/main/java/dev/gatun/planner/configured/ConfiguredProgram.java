package dev.gatun.planner.configured;

import dev.gatun.ffm.GatunLibrary;
import dev.gatun.ffm.NativeAccessException;
import dev.gatun.planner.GatunOptions;
import dev.gatun.planner.rewrite.GatunBatchProgram;
import dev.gatun.planner.rewrite.GatunStreamProgram;
import dev.gatun.planner.rewrite.PlanReport;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.apache.calcite.rel.RelNode;
import org.apache.flink.table.api.TableConfig;
import org.apache.flink.table.planner.plan.optimize.program.BatchOptimizeContext;
import org.apache.flink.table.planner.plan.optimize.program.FlinkBatchProgram;
import org.apache.flink.table.planner.plan.optimize.program.FlinkChainedProgram;
import org.apache.flink.table.planner.plan.optimize.program.FlinkOptimizeContext;
import org.apache.flink.table.planner.plan.optimize.program.FlinkStreamProgram;
import org.apache.flink.table.planner.plan.optimize.program.StreamOptimizeContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stream or batch program of a configuration-enabled planner: {@link GatunStreamProgram} or
 * {@link GatunBatchProgram} after the checks {@code Gatun.enable} makes, then every Calc that stayed
 * on Flink carries its reason into Flink's own EXPLAIN ({@link StockReasons}), which is all the SQL
 * Client shows.
 *
 * <ul>
 *   <li>{@code gatun.native.enabled=false} in the session: Flink's program only.
 *   <li>No native access in this JVM: the query fails naming the flag (a launch mistake).
 *   <li>No usable native library: Flink's program, one WARN per JVM; with
 *       {@code gatun.native.strict} the query fails instead.
 * </ul>
 */
final class ConfiguredProgram<C extends FlinkOptimizeContext> extends FlinkChainedProgram<C> {
    private static final Logger LOG = LoggerFactory.getLogger(ConfiguredProgram.class);
    private static final AtomicBoolean UNAVAILABLE_LOGGED = new AtomicBoolean();

    private final Function<TableConfig, FlinkChainedProgram<C>> stock;
    private final FlinkChainedProgram<C> gatun;

    private ConfiguredProgram(Function<TableConfig, FlinkChainedProgram<C>> stock, FlinkChainedProgram<C> gatun) {
        this.stock = stock;
        this.gatun = gatun;
    }

    static ConfiguredProgram<StreamOptimizeContext> stream() {
        return new ConfiguredProgram<>(FlinkStreamProgram::buildProgram, new GatunStreamProgram());
    }

    static ConfiguredProgram<BatchOptimizeContext> batch() {
        return new ConfiguredProgram<>(FlinkBatchProgram::buildProgram, new GatunBatchProgram());
    }

    @Override
    public RelNode optimize(RelNode root, C context) {
        TableConfig config = context.getTableConfig();
        if (!config.get(GatunOptions.NATIVE_ENABLED) || !libraryUsable(config)) {
            return stock.apply(config).optimize(root, context);
        }
        PlanReport report = PlanReport.start();
        try {
            RelNode optimized = gatun.optimize(root, context);
            return StockReasons.annotate(optimized, report.decisions());
        } finally {
            report.stop();
        }
    }

    private static boolean libraryUsable(TableConfig config) {
        try {
            GatunLibrary.abiVersion();
            return true;
        } catch (NativeAccessException e) {
            throw new NativeAccessException("Gatun (gatun.native.enabled=true in the Flink configuration): "
                    + e.getMessage() + " (add it to env.java.opts.all, or set gatun.native.enabled=false to run"
                    + " every query on stock Flink)");
        } catch (RuntimeException | LinkageError e) {
            if (config.get(GatunOptions.STRICT)) {
                throw new IllegalStateException("Gatun: the native library is unavailable and gatun.native.strict"
                        + " is set: " + e.getMessage(), e);
            }
            if (UNAVAILABLE_LOGGED.compareAndSet(false, true)) {
                LOG.warn("Gatun: the native library is unavailable, queries run on stock Flink: {}", e.getMessage());
            }
            return false;
        }
    }
}
