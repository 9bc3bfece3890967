package org.apache.flink.table.planner.loader;

import dev.gatun.flink.sql.PlannerSpace;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.delegation.Planner;
import org.apache.flink.table.delegation.PlannerFactory;

/**
 * Gatun's stand-in for the planner factory of Flink's {@code flink-table-planner-loader}, under the
 * same class name, so that with gatun-flink ahead of the loader on the class path (docs/using.md:
 * the jar in {@code lib/} named {@code flink-gatun-<version>.jar}) Java's service lookup, which
 * lists one provider per class name, finds this factory instead of the loader's, and Flink still
 * finds exactly one {@code default} planner factory. It creates Flink's planner exactly as the
 * loader does, and lets Gatun read the Flink configuration first ({@link PlannerSpace}).
 *
 * <p>Anywhere else it stays out of the way: where the loader's bundled planner is absent (the
 * full planner jar on the class path) or inside the planner's own class loader, it reports an
 * identifier no one asks for and creates nothing.
 */
public class DelegatePlannerFactory implements PlannerFactory {
    private final PlannerSpace space;

    public DelegatePlannerFactory() {
        this.space = PlannerSpace.forFactory(DelegatePlannerFactory.class);
    }

    @Override
    public String factoryIdentifier() {
        return space == null ? PlannerSpace.INACTIVE_IDENTIFIER : space.plannerFactory().factoryIdentifier();
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of();
    }

    @Override
    public Planner create(Context context) {
        if (space == null) {
            throw new IllegalStateException("Gatun's planner factory is inactive here (no flink-table-planner-loader"
                    + " planner on this class path), yet it was asked to create a planner");
        }
        return space.create(context);
    }
}
