package dev.gatun.planner;

import dev.gatun.ffm.GatunLibrary;
import dev.gatun.ffm.NativeAccessException;
import dev.gatun.planner.nodes.PlanNodes;
import dev.gatun.planner.rewrite.CalcDecision;
import dev.gatun.planner.rewrite.GatunBatchProgram;
import dev.gatun.planner.rewrite.GatunStreamProgram;
import dev.gatun.planner.rewrite.PlanReport;
import org.apache.flink.table.api.TableConfig;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.planner.calcite.CalciteConfig;
import org.apache.flink.table.planner.calcite.CalciteConfig$;
import org.apache.flink.table.planner.plan.optimize.program.BatchOptimizeContext;
import org.apache.flink.table.planner.plan.optimize.program.FlinkChainedProgram;
import org.apache.flink.table.planner.plan.optimize.program.StreamOptimizeContext;
import org.apache.flink.table.planner.utils.TableConfigUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one call a Flink job makes: {@code Gatun.enable(tableEnv)}. From then on, admitted Calcs
 * of streaming and batch queries run natively; {@code gatun.*} keys in the table config steer it at
 * planning time ({@link GatunOptions}).
 */
public final class Gatun {
    private static final Logger LOG = LoggerFactory.getLogger(Gatun.class);

    private Gatun() {}

    /**
     * Installs Gatun's optimizer program.
     * <ul>
     *   <li>A JVM started without {@code --enable-native-access} is a launch mistake: {@code enable}
     *       throws a {@link NativeAccessException} naming the flag (with {@code gatun.native.enabled}
     *       {@code false} it only logs, and every query stays on Flink).
     *   <li>A native library that cannot be loaded here (another OS or architecture, a broken
     *       {@code gatun.native.library}) is logged and the planner stays stock, unless
     *       {@code gatun.native.strict} asks {@code enable} to fail.
     * </ul>
     *
     * @return whether native Calcs are possible in this JVM
     */
    public static boolean enable(TableEnvironment tEnv) {
        TableConfig config = tEnv.getConfig();
        try {
            GatunLibrary.abiVersion();
        } catch (NativeAccessException e) {
            if (config.get(GatunOptions.NATIVE_ENABLED)) {
                throw new NativeAccessException("Gatun.enable: " + e.getMessage()
                        + " (or set gatun.native.enabled=false to run every query on stock Flink)");
            }
            LOG.warn("Gatun: native access is off and gatun.native.enabled=false, queries run on stock Flink: {}",
                    e.getMessage());
            registerPlanNodes();
            return false;
        } catch (RuntimeException | LinkageError e) {
            if (config.get(GatunOptions.STRICT)) {
                throw new IllegalStateException("Gatun: the native library is unavailable and gatun.native.strict"
                        + " is set: " + e.getMessage(), e);
            }
            LOG.warn("Gatun: the native library is unavailable, queries run on stock Flink: {}", e.getMessage());
            registerPlanNodes(); // compiled plans with native Calcs still load, and run stock
            return false;
        }
        installPrograms(config, new GatunStreamProgram(), new GatunBatchProgram());
        registerPlanNodes();
        return true;
    }

    /**
     * Makes {@code stream} and {@code batch} the optimization programs of every streaming and batch
     * query planned with {@code config} (the rest of the planner configuration is kept). {@code enable}
     * installs {@link GatunStreamProgram} and {@link GatunBatchProgram}; the configuration path
     * ({@code dev.gatun.planner.configured}) its own programs around them.
     */
    public static void installPrograms(TableConfig config, FlinkChainedProgram<StreamOptimizeContext> stream,
                                       FlinkChainedProgram<BatchOptimizeContext> batch) {
        CalciteConfig current = TableConfigUtils.getCalciteConfig(config);
        config.setPlannerConfig(CalciteConfig$.MODULE$.createBuilder(current)
                .replaceStreamProgram(stream)
                .replaceBatchProgram(batch)
                .build());
    }

    /**
     * Lets this JVM read compiled plans with native Calcs ({@code EXECUTE PLAN}, {@code loadPlan}).
     * {@link #enable} calls it, and so does every {@code TableEnvironment} creation while Gatun is on
     * the class path (a service entry); call it yourself only where neither happens before a plan is
     * read. Idempotent and thread-safe.
     */
    public static void registerPlanNodes() {
        PlanNodes.register();
    }

    /**
     * Flink's EXPLAIN of {@code statement} (native islands print as {@code NativeCalc}), followed
     * by Gatun's decision for every Calc, with the reason for each one that stayed on Flink.
     */
    public static String explain(TableEnvironment tEnv, String statement) {
        PlanReport report = PlanReport.start();
        try {
            String plan = tEnv.explainSql(statement);
            StringBuilder out = new StringBuilder(plan).append("\n== Gatun ==\n");
            if (report.decisions().isEmpty()) {
                out.append(tEnv.getConfig().get(GatunOptions.NATIVE_ENABLED)
                        ? "no Calc in this plan\n" : "gatun.native.enabled=false: every Calc stays on Flink\n");
            }
            for (CalcDecision d : report.decisions()) {
                out.append(d).append('\n');
            }
            return out.toString();
        } finally {
            report.stop();
        }
    }
}
