package dev.gatun.planner.runtime;

import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.memory.OutOfNativeMemoryException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.util.ExceptionUtils;

/**
 * The TaskManager's task off-heap budget ({@code taskmanager.memory.task.off-heap.size}) as a
 * bound on Gatun's native memory: the entry batches Java writes, the result batches imported
 * from Rust and the groups a native local aggregate keeps between calls, of every Gatun operator in this JVM (one TaskManager). Flink does not enforce that
 * budget itself, so an unbounded native operator could take memory the TaskManager never gave it.
 *
 * <p>Java allocations are refused up front (each operator's allocator carries the budget as its
 * limit); imported bytes are only known after Rust produced them, so the total is checked after
 * each native call. Either way the task fails with {@link NativeMemoryBudgetException} naming the
 * budget. Without a budget (Flink's default is 0, meaning none) nothing is bounded.
 */
final class NativeMemoryBudget {
    static final String KEY = TaskManagerOptions.TASK_OFF_HEAP_MEMORY.key();

    /** Allocators of the bounded operators open in this JVM (class loader). */
    private static final Set<NativeAllocator> BOUNDED = ConcurrentHashMap.newKeySet();
    /** Bytes the native handles of a bounded operator keep between calls (a local aggregate's groups). */
    private static final Map<NativeAllocator, Long> HELD = new ConcurrentHashMap<>();

    private final long bytes;
    private long stateShare = Long.MAX_VALUE;

    private NativeMemoryBudget(long bytes) {
        this.bytes = bytes;
    }

    static NativeMemoryBudget of(Configuration taskManagerConfig) {
        MemorySize size = taskManagerConfig.get(TaskManagerOptions.TASK_OFF_HEAP_MEMORY);
        return new NativeMemoryBudget(size == null || size.getBytes() == 0 ? Long.MAX_VALUE : size.getBytes());
    }

    boolean bounded() {
        return bytes != Long.MAX_VALUE;
    }

    long bytes() {
        return bytes;
    }

    /**
     * The bound of one operator's native state: three quarters of the slot's share of the budget
     * (Flink's default slot profile divides task off-heap memory evenly among the slots; the rest is
     * for the batches crossing), or {@code Long.MAX_VALUE}.
     */
    long stateShare(Configuration taskManagerConfig) {
        if (!bounded()) {
            return Long.MAX_VALUE;
        }
        stateShare = bytes / Math.max(1, taskManagerConfig.get(TaskManagerOptions.NUM_TASK_SLOTS)) / 4 * 3;
        return stateShare;
    }

    /**
     * {@code failure} with a message naming the budget and the operator when the native state's bound
     * ({@link #stateShare}) refused a row (the native message names the bound, the bytes and the key).
     */
    RuntimeException explainState(RuntimeException failure, NativeAllocator allocator) {
        if (stateShare == Long.MAX_VALUE || failure instanceof NativeMemoryBudgetException
                || failure.getMessage() == null || !failure.getMessage().contains(Long.toString(stateShare))) {
            return failure;
        }
        return new NativeMemoryBudgetException("Gatun: the native window state of operator '" + allocator.name()
                + "' would exceed its share of " + new MemorySize(stateShare).toHumanReadableString() + " ("
                + failure.getMessage() + "), " + beyond(), failure);
    }

    /** An allocator for one operator, limited by the budget when there is one. */
    NativeAllocator open(String operatorName) {
        NativeAllocator allocator = NativeAllocator.create("gatun " + operatorName, bytes);
        if (bounded()) {
            BOUNDED.add(allocator);
        }
        return allocator;
    }

    void closed(NativeAllocator allocator) {
        BOUNDED.remove(allocator);
        HELD.remove(allocator);
    }

    /** Records what the operator of {@code allocator} holds natively now (for {@link #check}). */
    void held(NativeAllocator allocator, long bytes) {
        if (bounded()) {
            HELD.put(allocator, bytes);
        }
    }

    /** Whether the bounded operators of this JVM hold more than the budget now. */
    boolean exceeded() {
        return bounded() && total() > bytes;
    }

    private static long total() {
        long total = 0;
        for (NativeAllocator a : BOUNDED) {
            total += a.javaBytes() + a.importedBytes() + HELD.getOrDefault(a, 0L);
        }
        return total;
    }

    /** Throws when the bounded operators of this JVM hold more than the budget. */
    void check(NativeAllocator allocator) {
        if (!bounded()) {
            return;
        }
        long total = total();
        if (total > bytes) {
            long held = HELD.getOrDefault(allocator, 0L);
            throw new NativeMemoryBudgetException("Gatun: operator '" + allocator.name() + "' holds "
                    + allocator.javaBytes() + " Java-written and " + allocator.importedBytes() + " imported bytes"
                    + (held == 0 ? "" : " and " + held + " bytes of native aggregate groups") + "; with the other Gatun operators of this TaskManager that is " + total
                    + " bytes, " + beyond());
        }
    }

    /** {@code failure} with a message naming the budget when an allocation hit it, else unchanged. */
    RuntimeException explain(RuntimeException failure, NativeAllocator allocator) {
        if (!bounded()) {
            return failure;
        }
        return ExceptionUtils.findThrowable(failure, OutOfNativeMemoryException.class)
                .filter(e -> e.limit() == bytes)
                .<RuntimeException>map(e -> new NativeMemoryBudgetException("Gatun: operator '" + allocator.name()
                        + "' needs " + e.requested() + " more bytes with " + e.live() + " live, " + beyond()
                        + " (" + failure.getMessage() + ")", failure))
                .orElse(failure);
    }

    private String beyond() {
        return "beyond the task off-heap budget " + KEY + " = " + new MemorySize(bytes).toHumanReadableString()
                + ". Raise " + KEY + " or lower gatun.batch.rows (a window aggregate's state: fewer keys per window,"
                + " shorter windows, or more slots' memory)";
    }

    /** The task failed because Gatun's native memory would exceed the task off-heap budget. */
    static final class NativeMemoryBudgetException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NativeMemoryBudgetException(String message) {
            super(message);
        }

        NativeMemoryBudgetException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
