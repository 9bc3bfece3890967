package dev.gatun.bench.e2e;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The CPU time of the task threads of a job other than its sink's, for jobs that are more than one
 * chained task (an aggregate: source, Calc and local aggregate, then an exchange, then the global
 * aggregate and the sink). A task thread ends with its task, and the CPU time of an ended thread
 * cannot be read, so a daemon thread samples every Flink task thread of this JVM (named
 * {@code <task> (<subtask>/<parallelism>)#<attempt>}) every {@value #INTERVAL_MILLIS} ms while the job
 * runs and keeps each thread's last reading: each upstream task loses at most its last interval.
 * The sink's task thread is measured exactly when the sink closes ({@link BlackholeSink}) and is
 * left out here.
 */
final class TaskThreadCpu implements AutoCloseable {
    static final long INTERVAL_MILLIS = 2;
    private static final Pattern TASK_THREAD = Pattern.compile(".* \\(\\d+/\\d+\\)#\\d+$");

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final Set<Long> before;
    private final Map<Long, Boolean> isTask = new HashMap<>();
    private final Map<Long, Long> lastNanos = new HashMap<>();
    private final Thread sampler;
    private volatile boolean running = true;

    private TaskThreadCpu() {
        // threads alive before the job (an earlier job's ending tasks) are not this job's
        before = new java.util.HashSet<>();
        for (long id : threads.getAllThreadIds()) {
            before.add(id);
        }
        sampler = new Thread(this::run, "gatun-bench-task-cpu");
        sampler.setDaemon(true);
    }

    /** Starts sampling; call before the job is submitted. */
    static TaskThreadCpu start() {
        TaskThreadCpu cpu = new TaskThreadCpu();
        cpu.sampler.start();
        return cpu;
    }

    private void run() {
        while (running) {
            sample();
            try {
                Thread.sleep(INTERVAL_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private synchronized void sample() {
        for (long id : threads.getAllThreadIds()) {
            if (before.contains(id)) {
                continue;
            }
            Boolean task = isTask.get(id);
            if (task == null) {
                ThreadInfo info = threads.getThreadInfo(id);
                if (info == null) {
                    continue; // ended meanwhile
                }
                task = TASK_THREAD.matcher(info.getThreadName()).matches();
                isTask.put(id, task);
            }
            if (task) {
                long nanos = threads.getThreadCpuTime(id);
                if (nanos >= 0) {
                    lastNanos.put(id, nanos);
                }
            }
        }
    }

    /** Stops sampling (after the job finished) and returns the CPU nanos of task threads not in {@code sinks}. */
    synchronized long stopExcluding(Set<Long> sinks) {
        running = false;
        sampler.interrupt();
        long total = 0;
        for (Map.Entry<Long, Long> e : lastNanos.entrySet()) {
            if (!sinks.contains(e.getKey())) {
                total += e.getValue();
            }
        }
        return total;
    }

    @Override
    public void close() {
        running = false;
        sampler.interrupt();
    }
}
