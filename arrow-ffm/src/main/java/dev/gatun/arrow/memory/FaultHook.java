package dev.gatun.arrow.memory;

import java.util.ServiceLoader;

/**
 * The seam where tests inject failures: the code calls {@link #hit} at each {@link FaultPoint}. A
 * hook is looked up once, with {@link ServiceLoader}; the shipped jars provide none, so a hit reads
 * a static final null. arrow-ffm's test jar provides one that tests arm and disarm.
 */
public interface FaultHook {
    /** Called at {@code point}; throws to fail there. */
    void onHit(FaultPoint point);

    static void hit(FaultPoint point) {
        FaultHook hook = Installed.HOOK;
        if (hook != null) {
            hook.onHit(point);
        }
    }
}

/** The hook on the class path, if any, found when the first point is hit. */
final class Installed {
    static final FaultHook HOOK = ServiceLoader.load(FaultHook.class, FaultHook.class.getClassLoader())
            .findFirst().orElse(null);

    private Installed() {}
}
