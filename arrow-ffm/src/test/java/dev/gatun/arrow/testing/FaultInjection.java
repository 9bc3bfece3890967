package dev.gatun.arrow.testing;

import dev.gatun.arrow.memory.FaultHook;
import dev.gatun.arrow.memory.FaultPoint;
import java.util.Objects;

/**
 * The tests' {@link FaultHook} (registered in this test jar's META-INF/services): a test installs
 * an injector that throws at the point it wants to exercise, and clears it afterwards.
 */
public final class FaultInjection implements FaultHook {
    /** Decides, at each point, whether to fail (by throwing). */
    @FunctionalInterface
    public interface Injector {
        void onHit(FaultPoint point);
    }

    /** The exception injectors throw, so tests can tell it from real failures. */
    public static final class InjectedFault extends RuntimeException {
        public InjectedFault(FaultPoint point, int occurrence) {
            super("injected fault at " + point + " (occurrence " + occurrence + ")");
        }
    }

    private static volatile Injector injector;

    /** For {@link java.util.ServiceLoader}. */
    public FaultInjection() {}

    @Override
    public void onHit(FaultPoint point) {
        Injector current = injector;
        if (current != null) {
            current.onHit(point);
        }
    }

    public static void install(Injector newInjector) {
        injector = Objects.requireNonNull(newInjector, "injector");
    }

    public static void clear() {
        injector = null;
    }
}
