package dev.gatun.bench.e2e;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Optional;
import org.apache.flink.table.api.TableEnvironment;

/**
 * Gatun: calls {@code dev.gatun.planner.Gatun.enable(tEnv)} from planner-hooks (and its
 * {@code explain(tEnv, statement)} for the recorded plans, when present). Found by name so that
 * the harness builds and runs (stock only) before that entry point exists; once it does, this
 * engine is picked up with no change here. An {@code enable} that reports {@code false} (no native
 * library in this JVM) fails the run rather than timing stock Flink under Gatun's name.
 */
public final class GatunEngine implements EngineConfigurer {
    static final String ENTRY_CLASS = "dev.gatun.planner.Gatun";

    private final Method enable;
    private final Method explain;
    private final String unavailable;

    public GatunEngine() {
        Method found = null;
        Method explainer = null;
        String why = null;
        try {
            Class<?> entry = Class.forName(ENTRY_CLASS);
            found = findStatic(entry, "enable", TableEnvironment.class);
            explainer = findStatic(entry, "explain", TableEnvironment.class, String.class);
            if (found == null) {
                why = ENTRY_CLASS + " has no static enable(TableEnvironment)";
            }
        } catch (ClassNotFoundException e) {
            why = "planner-hooks has no " + ENTRY_CLASS + " yet";
        } catch (LinkageError e) {
            why = ENTRY_CLASS + " cannot be loaded: " + e;
        }
        this.enable = found;
        this.explain = explainer != null && explainer.getReturnType() == String.class ? explainer : null;
        this.unavailable = why;
    }

    private static Method findStatic(Class<?> entry, String name, Class<?>... arguments) {
        for (Method m : entry.getMethods()) {
            if (m.getName().equals(name) && Modifier.isStatic(m.getModifiers())
                    && m.getParameterCount() == arguments.length && accepts(m.getParameterTypes(), arguments)) {
                return m;
            }
        }
        return null;
    }

    private static boolean accepts(Class<?>[] parameters, Class<?>[] arguments) {
        for (int i = 0; i < parameters.length; i++) {
            if (!parameters[i].isAssignableFrom(arguments[i])) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String name() {
        return "gatun";
    }

    @Override
    public Optional<String> unavailableReason() {
        return Optional.ofNullable(unavailable);
    }

    @Override
    public void configure(TableEnvironment tEnv) {
        if (enable == null) {
            throw new IllegalStateException("Gatun is unavailable: " + unavailable);
        }
        if (Boolean.FALSE.equals(invoke(enable, tEnv))) {
            throw new IllegalStateException("Gatun.enable reported that native Calcs are impossible in this JVM"
                    + " (see its log); not timing stock Flink as Gatun");
        }
    }

    @Override
    public void forceNative(TableEnvironment tEnv) {
        tEnv.getConfig().set("gatun.native.force", "true");
    }

    @Override
    public boolean canForceNative() {
        return true;
    }

    @Override
    public boolean runsNative(String plan) {
        return plan.contains("NativeCalc(");
    }

    @Override
    public String explain(TableEnvironment tEnv, String statement) {
        return explain == null ? tEnv.explainSql(statement) : (String) invoke(explain, tEnv, statement);
    }

    private static Object invoke(Method method, Object... arguments) {
        try {
            return method.invoke(null, arguments);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("Gatun." + method.getName() + " failed", e.getCause());
        }
    }
}
