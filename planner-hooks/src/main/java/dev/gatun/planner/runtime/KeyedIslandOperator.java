package dev.gatun.planner.runtime;

import dev.gatun.arrow.operator.NativeOperator;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.core.memory.DataInputViewStreamWrapper;
import org.apache.flink.core.memory.DataOutputViewStreamWrapper;
import org.apache.flink.runtime.state.KeyGroupStatePartitionStreamProvider;
import org.apache.flink.runtime.state.KeyGroupsList;
import org.apache.flink.runtime.state.KeyedStateCheckpointOutputStream;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * The keyed island: an {@link IslandOperator} whose kernel keeps state (the window aggregate's
 * accumulators per key and slice, in native memory) and writes it into Flink's raw keyed state.
 *
 * <p>The transformation carries the stock operator's key selector and type, so Flink gives it a
 * keyed state backend, raw keyed state streams and, on rescale, the key groups of its range; the
 * rows themselves need no key context (the kernel keys them), so none is set per record. At a
 * checkpoint the pending rows are processed, then every key group of the subtask's range gets one
 * frame, in order: {@value #FRAME_MAGIC} (int), the length of the native section (int, 0 for a key
 * group without state), the section. A restore hands every frame of the subtask's key groups to the
 * kernel. State is bounded by the slot's share of the task off-heap budget.
 *
 * <p>The watermark progress goes where Flink's window operator keeps its watermark: every subtask
 * adds its own to a union list state ({@value #PROGRESS_STATE}), and a restored subtask continues
 * from the lowest of them all, also when none of its key groups holds state (it then drops the rows
 * of windows that fired before the snapshot, as Flink does). As in Flink, a watermark at or below
 * that progress passes on as the progress.
 */
public final class KeyedIslandOperator extends IslandOperator {
    private static final long serialVersionUID = 1L;

    /** Leads every key group's frame ("GWA" and the frame version 1). */
    static final int FRAME_MAGIC = 0x47574101;
    /** The union list state in which Flink's own window operator keeps its watermark. */
    private static final String STOCK_WATERMARK_STATE = "watermark";
    /** The union list state of every subtask's watermark progress. */
    static final String PROGRESS_STATE = "gatun-window-progress";
    private static final int COPY_CHUNK = 1 << 16;

    private transient ListState<Long> progressState;

    public KeyedIslandOperator(NativeCalcSpec spec) {
        super(spec);
        if (!spec.windowAggregate()) {
            throw new IllegalArgumentException("a keyed island hosts a window aggregate, not a " + spec.kind());
        }
    }

    /** The kernel keys the rows itself: no key context per record. */
    @Override
    public void setKeyContextElement1(StreamRecord record) {}

    @Override
    protected boolean isUsingCustomRawKeyedState() {
        return true;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        startNative();
        NativeOperator handle = statefulHandle();
        long share = budget.stateShare(getContainingTask().getEnvironment().getTaskManagerInfo().getConfiguration());
        if (share != Long.MAX_VALUE) {
            handle.limitState(share);
        }
        metrics.stateGauges();
        metrics.lateRecordMetrics();
        ListState<Long> stockWatermark = context.getOperatorStateStore()
                .getUnionListState(new ListStateDescriptor<>(STOCK_WATERMARK_STATE, LongSerializer.INSTANCE));
        progressState = context.getOperatorStateStore()
                .getUnionListState(new ListStateDescriptor<>(PROGRESS_STATE, LongSerializer.INSTANCE));
        if (context.isRestored()) {
            if (stockWatermark.get() != null && stockWatermark.get().iterator().hasNext()) {
                throw new IllegalStateException(notNativeState("it holds Flink's own window state"));
            }
            restore(context, handle);
            restoreProgress(handle);
        }
        heldChanged();
    }

    /** Flink's window operator continues from the lowest watermark of all subtasks (WindowAggOperator). */
    private void restoreProgress(NativeOperator handle) throws Exception {
        long lowest = Long.MAX_VALUE;
        for (Long progress : progressState.get()) {
            lowest = Math.min(lowest, progress);
        }
        if (lowest != Long.MAX_VALUE) {
            handle.restoreProgress(lowest);
        }
        currentWatermark = handle.stateStats().progress();
    }

    private void restore(StateInitializationContext context, NativeOperator handle) throws IOException {
        long start = System.nanoTime();
        long bytes = 0;
        byte[] chunk = new byte[COPY_CHUNK];
        for (KeyGroupStatePartitionStreamProvider group : context.getRawKeyedStateInputs()) {
            // the stream belongs to Flink's iterator, which closes it
            DataInputViewStreamWrapper in = new DataInputViewStreamWrapper(group.getStream());
            int magic = in.readInt();
            if (magic != FRAME_MAGIC) {
                throw new IllegalStateException(notNativeState("key group " + group.getKeyGroupId()
                        + " starts with 0x" + Integer.toHexString(magic) + ", not a native window state frame"));
            }
            int length = in.readInt();
            if (length < 0) {
                throw new IllegalStateException(notNativeState("key group " + group.getKeyGroupId()
                        + " has a frame of " + length + " bytes"));
            }
            if (length == 0) {
                continue;
            }
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment section = arena.allocate(length);
                for (int done = 0; done < length; ) {
                    int n = Math.min(chunk.length, length - done);
                    in.readFully(chunk, 0, n);
                    MemorySegment.copy(chunk, 0, section, ValueLayout.JAVA_BYTE, done, n);
                    done += n;
                }
                handle.restore(section);
            }
            bytes += length;
        }
        metrics.restored(bytes, System.nanoTime() - start);
    }

    private String notNativeState(String what) {
        return "Gatun: the state of operator '" + getOperatorName() + "' (operator ID " + getOperatorID()
                + ") was not written by Gatun's native window aggregate: " + what + ". Restore it with the engine"
                + " that wrote it (gatun.aggregate.window.enabled=false, or gatun.native.enabled=false, for state"
                + " of Flink's window aggregate), or start the job without it";
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        super.processWatermark(mark.getTimestamp() > currentWatermark ? mark : new Watermark(currentWatermark));
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        processPending();
        progressState.update(List.of(statefulHandle().stateStats().progress()));
        long start = System.nanoTime();
        KeyedStateCheckpointOutputStream out = context.getRawKeyedOperatorStateOutput();
        KeyGroupsList groups = out.getKeyGroupList();
        DataOutputViewStreamWrapper view = new DataOutputViewStreamWrapper(out);
        int maxParallelism = getRuntimeContext().getTaskInfo().getMaxNumberOfParallelSubtasks();
        byte[] chunk = new byte[COPY_CHUNK];
        int[] next = {0};
        long[] bytes = {0};
        statefulHandle().snapshot(maxParallelism, (keyGroup, section) -> {
            emptyFramesBefore(keyGroup, groups, next, out, view);
            if (next[0] == groups.getNumberOfKeyGroups() || groups.getKeyGroupId(next[0]) != keyGroup) {
                throw new IOException("Gatun: native state of key group " + keyGroup + " (of " + maxParallelism
                        + ") is not in the key groups of this subtask of '" + getOperatorName() + "': " + groups);
            }
            if (section.byteSize() > Integer.MAX_VALUE) {
                throw new IOException("Gatun: the native state of key group " + keyGroup + " of '"
                        + getOperatorName() + "' is " + section.byteSize() + " bytes, beyond a frame's 2 GiB");
            }
            out.startNewKeyGroup(keyGroup);
            view.writeInt(FRAME_MAGIC);
            int length = (int) section.byteSize();
            view.writeInt(length);
            for (int done = 0; done < length; ) {
                int n = Math.min(chunk.length, length - done);
                MemorySegment.copy(section, ValueLayout.JAVA_BYTE, done, chunk, 0, n);
                view.write(chunk, 0, n);
                done += n;
            }
            bytes[0] += length;
            next[0]++;
        });
        emptyFramesBefore(Integer.MAX_VALUE, groups, next, out, view);
        metrics.snapshotted(bytes[0], System.nanoTime() - start);
    }

    /** Writes an empty frame for every key group of {@code groups} from {@code next[0]} up to {@code keyGroup}. */
    private static void emptyFramesBefore(int keyGroup, KeyGroupsList groups, int[] next,
                                          KeyedStateCheckpointOutputStream out, DataOutputViewStreamWrapper view)
            throws IOException {
        while (next[0] < groups.getNumberOfKeyGroups() && groups.getKeyGroupId(next[0]) < keyGroup) {
            out.startNewKeyGroup(groups.getKeyGroupId(next[0]));
            view.writeInt(FRAME_MAGIC);
            view.writeInt(0);
            next[0]++;
        }
    }

    /** The kernel's state changed: the budget and the state metrics see what it holds now. */
    @Override
    void heldChanged() {
        NativeOperator.StateStats stats = statefulHandle().stateStats();
        metrics.state(stats.keys(), stats.slices(), stats.bytes());
        metrics.lateRows(stats.lateRows());
        budget.held(allocator, kernel.heldBytes());
    }

    @Override
    RuntimeException explain(RuntimeException failure) {
        return budget.explainState(super.explain(failure), allocator);
    }
}
