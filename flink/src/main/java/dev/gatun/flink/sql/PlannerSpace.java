package dev.gatun.flink.sql;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.table.api.SqlDialect;
import org.apache.flink.table.api.TableConfig;
import org.apache.flink.table.api.TableException;
import org.apache.flink.table.delegation.ParserFactory;
import org.apache.flink.table.delegation.Planner;
import org.apache.flink.table.delegation.PlannerFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.planner.loader.PlannerModule;

/**
 * Flink's planner as the planner loader holds it (in a class loader of its own, fed from the
 * planner jar the loader bundles), with gatun-flink added to that class loader through the
 * loader's public {@link PlannerModule#addUrlToClassLoader}, so that Gatun's planner classes link
 * against the planner's Calcite and internals there. Every planner it creates first passes its
 * table config to {@code dev.gatun.planner.configured.GatunFromConfiguration}, loaded in that class
 * loader.
 */
public final class PlannerSpace {
    /** The identifier of the stand-in factory where it is inactive: matches no planner lookup. */
    public static final String INACTIVE_IDENTIFIER = "gatun-inactive-planner-loader";

    private static final String BUNDLED_PLANNER = "flink-table-planner.jar";
    private static final String ENABLEMENT = "dev.gatun.planner.configured.GatunFromConfiguration";
    private static final Set<SqlDialect> DIALECTS_ADDED = ConcurrentHashMap.newKeySet();
    private static volatile PlannerSpace shared;

    private final PlannerModule module;
    private final PlannerFactory plannerFactory;
    private final Method apply;

    private PlannerSpace(PlannerModule module, URL gatunJar) {
        this.module = module;
        module.addUrlToClassLoader(gatunJar);
        this.plannerFactory = module.loadPlannerFactory();
        try {
            this.apply = Class.forName(ENABLEMENT, true, module.getSubmoduleClassLoader())
                    .getMethod("apply", TableConfig.class);
        } catch (ReflectiveOperationException e) {
            throw new TableException("Gatun: " + ENABLEMENT + " is not loadable from " + gatunJar
                    + " in the planner's class loader", e);
        }
    }

    /**
     * The planner space for the stand-in factory {@code factory}, or {@code null} where it must stay
     * inactive: loaded by another class loader than the planner loader's (e.g. inside the planner's
     * class loader, which sees gatun-flink too), or no bundled planner beside it.
     */
    public static PlannerSpace forFactory(Class<?> factory) {
        ClassLoader loader = PlannerModule.class.getClassLoader();
        if (factory.getClassLoader() != loader || loader.getResource(BUNDLED_PLANNER) == null) {
            return null;
        }
        PlannerSpace space = shared;
        if (space == null) {
            synchronized (PlannerSpace.class) {
                space = shared;
                if (space == null) {
                    URL jar = factory.getProtectionDomain().getCodeSource().getLocation();
                    space = shared = new PlannerSpace(PlannerModule.getInstance(), jar);
                }
            }
        }
        return space;
    }

    /** Flink's own planner factory, from the planner's class loader. */
    public PlannerFactory plannerFactory() {
        return plannerFactory;
    }

    /** Flink's planner for {@code context}, after Gatun read its table config. */
    public Planner create(PlannerFactory.Context context) {
        TableConfig config = context.getTableConfig();
        addDialectParser(config.getSqlDialect());
        try {
            apply.invoke(null, config);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new TableException("Gatun could not read the planner configuration", e.getCause());
        } catch (IllegalAccessException e) {
            throw new TableException("Gatun could not read the planner configuration", e);
        }
        return plannerFactory.create(context);
    }

    /**
     * A dialect other than Flink's own (Hive's) brings its parser in a jar of its own, next to the
     * loader, which must join the planner's class loader before the planner looks the parser up,
     * as the loader's own factory arranges.
     */
    private void addDialectParser(SqlDialect dialect) {
        if (dialect == SqlDialect.DEFAULT || DIALECTS_ADDED.contains(dialect)) {
            return;
        }
        ParserFactory parser = FactoryUtil.discoverFactory(PlannerFactory.class.getClassLoader(),
                ParserFactory.class, dialect.name().toLowerCase(Locale.ROOT));
        module.addUrlToClassLoader(parser.getClass().getProtectionDomain().getCodeSource().getLocation());
        DIALECTS_ADDED.add(dialect);
    }
}
