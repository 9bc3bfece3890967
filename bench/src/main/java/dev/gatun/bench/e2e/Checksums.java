package dev.gatun.bench.e2e;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where blackhole sinks leave their row counts and checksums, by key. Static, because the sink
 * runs in the same JVM as the harness (an embedded MiniCluster) but is instantiated by Flink.
 */
public final class Checksums {
    /** Rows seen and the sum of their {@link RowHasher} hashes (order-independent). */
    public record Checksum(long rows, long sum) {
        Checksum plus(Checksum other) {
            return new Checksum(rows + other.rows, sum + other.sum);
        }

        public String hex() {
            return String.format("%016x", sum);
        }
    }

    private static final ConcurrentHashMap<String, Checksum> BY_KEY = new ConcurrentHashMap<>();
    private static final ConcurrentHashMap<String, Long> TASK_CPU_NANOS = new ConcurrentHashMap<>();
    private static final ConcurrentHashMap<String, Boolean> OBJECT_REUSE = new ConcurrentHashMap<>();
    private static final ConcurrentHashMap<String, Set<Long>> SINK_THREADS = new ConcurrentHashMap<>();

    private Checksums() {}

    static void add(String key, long rows, long sum) {
        BY_KEY.merge(key, new Checksum(rows, sum), Checksum::plus);
    }

    /**
     * CPU time of a sink's task thread when the sink closed: with source, Calc and sink chained
     * into one task (parallelism 1), the CPU the whole pipeline used, whatever else the machine ran.
     */
    static void addTaskCpu(String key, long nanos) {
        TASK_CPU_NANOS.merge(key, nanos, Long::sum);
        SINK_THREADS.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(Thread.currentThread().threadId());
    }

    /** Removes and returns the ids of the threads the sinks with {@code key} closed on (empty when none). */
    public static Set<Long> takeSinkThreads(String key) {
        Set<Long> ids = SINK_THREADS.remove(key);
        return ids == null ? Set.of() : ids;
    }

    /** Whether object reuse was on in the job of the sink that opened under {@code key}, as its writer context says. */
    static void putObjectReuse(String key, boolean enabled) {
        OBJECT_REUSE.put(key, enabled);
    }

    /** Removes and returns what a sink under {@code key} saw of object reuse; null when no sink opened. */
    public static Boolean takeObjectReuse(String key) {
        return OBJECT_REUSE.remove(key);
    }

    /** Removes and returns the task-thread CPU nanos recorded under {@code key}; -1 when none. */
    public static long takeTaskCpuNanos(String key) {
        Long n = TASK_CPU_NANOS.remove(key);
        return n == null ? -1 : n;
    }

    /** Removes and returns what the sinks with {@code key} saw; zero rows when none wrote. */
    public static Checksum take(String key) {
        Checksum c = BY_KEY.remove(key);
        return c == null ? new Checksum(0, 0) : c;
    }
}
