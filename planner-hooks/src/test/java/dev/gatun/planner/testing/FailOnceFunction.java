package dev.gatun.planner.testing;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.table.functions.ScalarFunction;

/**
 * {@code FAIL_ONCE(x, run, n)}: returns {@code x}, and throws once, at its {@code n}-th call of run
 * {@code run} (the calls before a restart count; after the failure it never throws again). Placed
 * right after an aggregate, it fails the task that runs the aggregate.
 */
public final class FailOnceFunction extends ScalarFunction {
    private static final long serialVersionUID = 1L;
    private static final Map<String, AtomicLong> CALLS = new ConcurrentHashMap<>();
    private static final Map<String, Boolean> FAILED = new ConcurrentHashMap<>();

    public Long eval(Long x, String run, Long n) {
        if (!FAILED.containsKey(run) && CALLS.computeIfAbsent(run, r -> new AtomicLong()).incrementAndGet() == n) {
            FAILED.put(run, true);
            throw new IllegalStateException("FAIL_ONCE: the injected failure of run " + run);
        }
        return x;
    }

    /** Whether run {@code run} failed. */
    public static boolean failed(String run) {
        return FAILED.containsKey(run);
    }
}
