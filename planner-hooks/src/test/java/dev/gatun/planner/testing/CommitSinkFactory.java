package dev.gatun.planner.testing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code 'connector' = 'gatun-commit-sink', 'id' = '...'}: a sink that makes rows visible only
 * when the checkpoint they arrived before completes, so a replay after a failure that duplicated
 * or lost a row would show in {@link #committed}. Rows wait per checkpoint in operator state; a
 * restored sink commits what its restored checkpoint held (commits are idempotent per checkpoint
 * id). Bounded jobs commit their tail on the final checkpoint, so checkpointing must be on.
 * Parallelism 1; rows are {@code +I[..]}-style strings of Flink's internal values.
 */
public final class CommitSinkFactory extends IdSinkFactory {
    static final ConfigOption<Long> FAIL_AFTER_ROWS = ConfigOptions.key("fail-after-rows").longType().defaultValue(-1L);

    private static final Map<String, Store> STORES = new ConcurrentHashMap<>();

    /** What one sink id received and committed, across jobs and restarts. */
    private static final class Store {
        final AtomicLong received = new AtomicLong();
        final java.util.concurrent.atomic.AtomicBoolean failed = new java.util.concurrent.atomic.AtomicBoolean();
        final Map<Long, List<String>> byCheckpoint = new LinkedHashMap<>();

        synchronized void commit(long checkpointId, List<String> rows) {
            byCheckpoint.putIfAbsent(checkpointId, List.copyOf(rows));
        }
    }

    private static Store store(String id) {
        return STORES.computeIfAbsent(id, k -> new Store());
    }

    /** Committed rows in commit order. */
    public static List<String> committed(String id) {
        Store s = store(id);
        synchronized (s) {
            List<String> all = new ArrayList<>();
            s.byCheckpoint.values().forEach(all::addAll);
            return all;
        }
    }

    /** Committed rows per checkpoint id, in commit order (checkpoints that carried no row included). */
    public static Map<Long, List<String>> committedByCheckpoint(String id) {
        Store s = store(id);
        synchronized (s) {
            return new LinkedHashMap<>(s.byCheckpoint);
        }
    }

    public static boolean hasCommits(String id) {
        return !committed(id).isEmpty();
    }

    /** Rows that reached the sink so far (committed or not, replays counted again). */
    public static long received(String id) {
        return store(id).received.get();
    }

    public static String with(String id) {
        return "WITH ('connector' = 'gatun-commit-sink', 'id' = '" + id + "')";
    }

    /**
     * A sink that throws once, on the first row it receives after {@code failAfterRows} rows
     * once a checkpoint was committed (so the restart restores from a checkpoint).
     */
    public static String withFailure(String id, long failAfterRows) {
        return "WITH ('connector' = 'gatun-commit-sink', 'id' = '" + id + "', 'fail-after-rows' = '" + failAfterRows + "')";
    }

    /** Whether the sink {@code id} has thrown its one failure. */
    public static boolean failed(String id) {
        return store(id).failed.get();
    }

    public CommitSinkFactory() {
        super("gatun-commit-sink", FAIL_AFTER_ROWS);
    }

    @Override
    DynamicTableSink create(ReadableConfig options, Context context) {
        return new Sink(options.get(ID), options.get(FAIL_AFTER_ROWS),
                (RowType) context.getPhysicalRowDataType().getLogicalType());
    }

    private record Sink(String id, long failAfterRows, RowType type) implements DynamicTableSink {
        @Override
        public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
            return requestedMode;
        }

        @Override
        public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
            String sinkId = id;
            List<LogicalType> types = type.getChildren();
            return new DataStreamSinkProvider() {
                @Override
                public DataStreamSink<?> consumeDataStream(ProviderContext provider, DataStream<RowData> rows) {
                    SingleOutputStreamOperator<Object> committing = rows.transform("commit-on-checkpoint",
                            TypeInformation.of(Object.class), new CommitOperator(sinkId, failAfterRows, types));
                    provider.generateUid("commit").ifPresent(committing::uid);
                    committing.setParallelism(1);
                    return committing.sinkTo(new DiscardingSink<>()).setParallelism(1);
                }
            };
        }

        @Override
        public DynamicTableSink copy() {
            return new Sink(id, failAfterRows, type);
        }

        @Override
        public String asSummaryString() {
            return "gatun-commit-sink(" + id + ")";
        }
    }

    private static final class CommitOperator extends AbstractStreamOperator<Object>
            implements OneInputStreamOperator<RowData, Object> {
        private static final long serialVersionUID = 1L;
        private static final char SEP = '\u0001';

        private final String id;
        private final long failAfterRows;
        private final RowData.FieldGetter[] getters;
        private transient List<String> pending;
        private transient TreeMap<Long, List<String>> waiting;
        private transient ListState<String> state;

        CommitOperator(String id, long failAfterRows, List<LogicalType> types) {
            this.id = id;
            this.failAfterRows = failAfterRows;
            getters = new RowData.FieldGetter[types.size()];
            for (int i = 0; i < getters.length; i++) {
                getters[i] = RowData.createFieldGetter(types.get(i), i);
            }
        }

        @Override
        public void initializeState(StateInitializationContext context) throws Exception {
            super.initializeState(context);
            pending = new ArrayList<>();
            waiting = new TreeMap<>();
            state = context.getOperatorStateStore().getListState(new ListStateDescriptor<>("waiting", String.class));
            for (String entry : state.get()) {
                int sep = entry.indexOf(SEP);
                waiting.computeIfAbsent(Long.parseLong(entry.substring(0, sep)), k -> new ArrayList<>())
                        .add(entry.substring(sep + 1));
            }
            // the checkpoint we restored from completed, and so did every earlier one it still held
            commitUpTo(Long.MAX_VALUE);
        }

        @Override
        public void processElement(StreamRecord<RowData> element) {
            Store store = store(id);
            if (failAfterRows >= 0 && store.received.get() >= failAfterRows && hasCommits(id)
                    && store.failed.compareAndSet(false, true)) {
                throw new IllegalStateException("injected failure of sink " + id);
            }
            RowData row = element.getValue();
            StringBuilder sb = new StringBuilder(row.getRowKind().shortString()).append('[');
            for (int i = 0; i < getters.length; i++) {
                sb.append(i == 0 ? "" : ", ").append(getters[i].getFieldOrNull(row));
            }
            pending.add(sb.append(']').toString());
            store.received.incrementAndGet();
        }

        @Override
        public void snapshotState(StateSnapshotContext context) throws Exception {
            super.snapshotState(context);
            waiting.put(context.getCheckpointId(), pending);
            pending = new ArrayList<>();
            List<String> entries = new ArrayList<>();
            waiting.forEach((cp, rows) -> rows.forEach(r -> entries.add(cp + String.valueOf(SEP) + r)));
            state.update(entries);
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) throws Exception {
            super.notifyCheckpointComplete(checkpointId);
            commitUpTo(checkpointId);
        }

        private void commitUpTo(long checkpointId) {
            var done = waiting.headMap(checkpointId, true);
            done.forEach((cp, rows) -> store(id).commit(cp, rows));
            done.clear();
        }
    }
}
