package dev.gatun.bench.probe;

import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The CPU time of a job's task threads, as its sources and sinks report it when they close. A
 * source closes after every operator chained behind it (Flink closes a chain from its tail), and
 * a sink's thread runs whatever is chained in front of it, so with one source and one sink task
 * (parallelism 1) the sum covers every task thread of the job: one thread for a fully chained
 * query, the pre-shuffle and post-shuffle threads of a two-phase aggregate. A thread reported
 * twice (source and sink chained together) counts once, with its later reading.
 */
public final class TaskCpu {
    private static final ConcurrentHashMap<String, Map<Long, Long>> BY_KEY = new ConcurrentHashMap<>();

    private TaskCpu() {}

    /** Records the calling thread's CPU time so far under {@code key}; nothing when the key is null. */
    public static void recordCurrentThread(String key) {
        if (key != null) {
            record(key, ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime());
        }
    }

    private static void record(String key, long nanos) {
        BY_KEY.computeIfAbsent(key, k -> new ConcurrentHashMap<>())
                .merge(Thread.currentThread().threadId(), nanos, Math::max);
    }

    /**
     * {@link #recordCurrentThread} for a source, which also records its thread alone: with
     * parallelism 1, the task the source heads (a two-phase aggregate's local phase).
     */
    public static void recordSourceThread(String key) {
        if (key != null) {
            long nanos = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            record(key, nanos);
            record(sourceKey(key), nanos);
        }
    }

    /** Removes and returns the CPU nanos of the source threads recorded under {@code key}; -1 when none. */
    public static long takeSource(String key) {
        return take(sourceKey(key));
    }

    private static String sourceKey(String key) {
        return key + "#source";
    }

    /** Removes and returns the summed CPU nanos of the threads recorded under {@code key}; -1 when none. */
    public static long take(String key) {
        Map<Long, Long> threads = BY_KEY.remove(key);
        return threads == null ? -1 : threads.values().stream().mapToLong(Long::longValue).sum();
    }

    /** How many distinct threads reported under {@code key} so far. */
    public static int threads(String key) {
        Map<Long, Long> threads = BY_KEY.get(key);
        return threads == null ? 0 : threads.size();
    }
}
