package dev.gatun.bench.e2e;

import java.util.Optional;
import org.apache.flink.table.api.TableEnvironment;

/** How a run's {@link TableEnvironment} is set up: stock Flink, or with Gatun's planner hooks. */
public interface EngineConfigurer {
    /** Short name used in the CSV and charts. */
    String name();

    /** Empty when this engine can run here; otherwise why not. */
    Optional<String> unavailableReason();

    /** Prepares a fresh environment before the source, sink and query are registered. */
    void configure(TableEnvironment tEnv);

    /** For queries that measure the perimeter itself: send admitted Calcs native whatever the cost rule says. */
    default void forceNative(TableEnvironment tEnv) {}

    /** Whether this engine has a force switch ({@link #forceNative}), i.e. whether a plan without it is worth recording. */
    default boolean canForceNative() {
        return false;
    }

    /** Whether {@code plan} (from {@link #explain}) runs a native island; stock Flink never does. */
    default boolean runsNative(String plan) {
        return false;
    }

    /** The plan of {@code statement} as this engine will run it. */
    default String explain(TableEnvironment tEnv, String statement) {
        return tEnv.explainSql(statement);
    }

    EngineConfigurer STOCK = new EngineConfigurer() {
        @Override
        public String name() {
            return "stock";
        }

        @Override
        public Optional<String> unavailableReason() {
            return Optional.empty();
        }

        @Override
        public void configure(TableEnvironment tEnv) {}
    };
}
