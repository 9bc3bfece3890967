package dev.gatun.arrow.memory;

import java.util.Objects;

/**
 * Test hook: production code calls {@link #hit} at each {@link FaultPoint}; a test installs an
 * injector that throws at the point it wants to exercise. When nothing is installed a hit is one
 * volatile read of null.
 */
public final class FaultInjection {
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

    private FaultInjection() {}

    public static void hit(FaultPoint point) {
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
