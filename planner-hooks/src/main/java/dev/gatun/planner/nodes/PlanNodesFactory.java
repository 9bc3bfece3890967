package dev.gatun.planner.nodes;

import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.factories.Factory;
import org.slf4j.LoggerFactory;

/**
 * Not a factory of anything: a service entry ({@code META-INF/services}) that Flink instantiates
 * whenever it creates a {@code TableEnvironment} (its factory discovery loads every
 * {@link Factory} on the class path), so that a compiled plan with native Calcs can be read
 * ({@code EXECUTE PLAN}, {@code loadPlan}) by any table environment of a JVM that has Gatun on its
 * class path, also one that never called {@code Gatun.enable}.
 */
public final class PlanNodesFactory implements Factory {
    public PlanNodesFactory() {
        try {
            PlanNodes.register();
        } catch (RuntimeException | LinkageError e) {
            // e.g. the planner is loaded in its own class loader (flink-table-planner-loader), where
            // Gatun cannot run anyway; Gatun.enable reports that case
            LoggerFactory.getLogger(PlanNodesFactory.class).debug("Gatun: plan node types not registered", e);
        }
    }

    @Override
    public String factoryIdentifier() {
        return "gatun-plan-nodes";
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of();
    }
}
