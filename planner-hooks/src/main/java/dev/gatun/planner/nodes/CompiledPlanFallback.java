package dev.gatun.planner.nodes;

import dev.gatun.ffm.GatunLibrary;
import dev.gatun.ffm.NativeAccessException;
import dev.gatun.ffm.NativeException;
import dev.gatun.planner.GatunOptions;
import dev.gatun.planner.runtime.NativeCalcSpec;
import org.apache.flink.configuration.ReadableConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a native Calc read from a compiled plan can run natively in this JVM and config. The
 * plan was written elsewhere or earlier: Gatun may be switched off now, the native library may be
 * missing here, or it may refuse a Substrait plan another Gatun version wrote.
 */
final class CompiledPlanFallback {
    private static final Logger LOG = LoggerFactory.getLogger(CompiledPlanFallback.class);

    private CompiledPlanFallback() {}

    /**
     * Why the Calc {@code description} must run as the stock Calc (logged here), or null when it
     * runs natively. A JVM without {@code --enable-native-access} fails (as {@code Gatun.enable}
     * does), and so does an unavailable library with {@code gatun.native.strict}.
     */
    static String reasonToRunStock(NativeCalcSpec spec, ReadableConfig config, String description) {
        String reason = reason(spec, config);
        if (reason != null) {
            String message = "Gatun: a native Calc of the compiled plan runs on Flink (" + reason + "): " + description;
            if (config.get(GatunOptions.NATIVE_ENABLED)) {
                LOG.warn(message);
            } else {
                LOG.info(message);
            }
        }
        return reason;
    }

    private static String reason(NativeCalcSpec spec, ReadableConfig config) {
        if (!config.get(GatunOptions.NATIVE_ENABLED)) {
            return "gatun.native.enabled=false";
        }
        try {
            GatunLibrary.abiVersion();
        } catch (NativeAccessException e) {
            throw new NativeAccessException("Gatun: the compiled plan has native Calcs: " + e.getMessage()
                    + " (or set gatun.native.enabled=false to run them on stock Flink)");
        } catch (RuntimeException | LinkageError e) {
            if (config.get(GatunOptions.STRICT)) {
                throw new IllegalStateException("Gatun: the compiled plan has native Calcs, the native library is"
                        + " unavailable and gatun.native.strict is set: " + e.getMessage(), e);
            }
            return "the native library is unavailable: " + e.getMessage();
        }
        try {
            NativePlanCheck.compile(spec);
        } catch (NativeException e) {
            return "the native library refuses the plan: " + e.getMessage();
        }
        return null;
    }
}
