package dev.gatun.planner.configured;

import dev.gatun.planner.Gatun;
import dev.gatun.planner.GatunOptions;
import org.apache.flink.table.api.TableConfig;

/**
 * Gatun switched on by the Flink configuration instead of a {@code Gatun.enable} call: the SQL
 * Client and SQL Gateway path. gatun-flink's planner factory (docs/using.md, "SQL Client and SQL
 * Gateway") calls {@link #apply} for every planner it creates, from inside the planner's class
 * loader, before the planner reads the config.
 *
 * <p>Only an explicit {@code gatun.native.enabled: true} turns Gatun on here: the jar alone in
 * {@code lib/} changes nothing. The checks that {@code Gatun.enable} makes at once (native access,
 * the library) are made when a query is planned ({@link ConfiguredProgram}), so statements
 * that plan nothing ({@code SET}, {@code CREATE TABLE}) never fail because of Gatun.
 */
public final class GatunFromConfiguration {
    private GatunFromConfiguration() {}

    /** Installs Gatun's program into {@code config} when the configuration asks for it; returns whether it did. */
    public static boolean apply(TableConfig config) {
        if (!config.getOptional(GatunOptions.NATIVE_ENABLED).orElse(false)) {
            return false;
        }
        Gatun.installPrograms(config, ConfiguredProgram.stream(), ConfiguredProgram.batch());
        Gatun.registerPlanNodes();
        return true;
    }
}
