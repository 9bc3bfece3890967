package dev.gatun.planner.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.RuntimeConverter;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.DynamicTableSink.DataStructureConverter;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;

/**
 * {@code 'connector' = 'gatun-test-collect', 'id' = '...'}: a sink that keeps every changelog row
 * as {@code Row.toString()} ({@code +I[..]}, {@code -U[..]}, ...) in this JVM, so that many
 * queries can run as one job (a statement set) and still be compared one by one. With
 * {@code 'upsert' = 'true'} it asks for an upsert changelog (no UPDATE_BEFORE).
 */
public final class CollectSinkFactory extends IdSinkFactory {
    static final ConfigOption<Boolean> UPSERT = ConfigOptions.key("upsert").booleanType().defaultValue(false);
    /**
     * Keep the {@code RowData} objects it is handed until {@code flush} (a sink that batches), and
     * only then convert them: valid only where Flink hands each record over as an object the sink
     * owns ({@code pipeline.object-reuse=false}).
     */
    static final ConfigOption<Boolean> BUFFER = ConfigOptions.key("buffer").booleanType().defaultValue(false);
    private static final Map<String, List<String>> ROWS = new ConcurrentHashMap<>();
    private static final Map<String, Boolean> OBJECT_REUSE = new ConcurrentHashMap<>();
    private static final AtomicInteger NEXT = new AtomicInteger();

    /** A fresh sink id; its rows are read back with {@link #take(String)}. */
    public static String newId() {
        String id = "sink" + NEXT.incrementAndGet();
        ROWS.put(id, new ArrayList<>());
        return id;
    }

    /** The rows collected under {@code id}, sorted; forgets them. */
    public static List<String> take(String id) {
        List<String> rows = ROWS.remove(id);
        if (rows == null) {
            throw new IllegalStateException("no sink " + id);
        }
        synchronized (rows) {
            List<String> sorted = new ArrayList<>(rows);
            sorted.sort(null);
            return sorted;
        }
    }

    /** Whether the job that wrote sink {@code id} ran with object reuse (null before it ran); forgets it. */
    public static Boolean takeObjectReuse(String id) {
        return OBJECT_REUSE.remove(id);
    }

    public CollectSinkFactory() {
        super("gatun-test-collect", UPSERT, BUFFER);
    }

    @Override
    DynamicTableSink create(ReadableConfig options, Context context) {
        return new CollectSink(options.get(ID), options.get(UPSERT), options.get(BUFFER),
                context.getPhysicalRowDataType());
    }

    private record CollectSink(String id, boolean upsert, boolean buffer, DataType type) implements DynamicTableSink {
        @Override
        public ChangelogMode getChangelogMode(ChangelogMode requested) {
            return upsert ? ChangelogMode.upsert() : ChangelogMode.all();
        }

        @Override
        public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
            return SinkV2Provider.of(new Collector(id, buffer, context.createDataStructureConverter(type)));
        }

        @Override
        public DynamicTableSink copy() {
            return new CollectSink(id, upsert, buffer, type);
        }

        @Override
        public String asSummaryString() {
            return "gatun-test-collect(" + id + ")";
        }
    }

    private record Collector(String id, boolean buffer, DataStructureConverter converter) implements Sink<RowData> {
        @Override
        public SinkWriter<RowData> createWriter(WriterInitContext context) {
            converter.open(RuntimeConverter.Context.create(Thread.currentThread().getContextClassLoader()));
            OBJECT_REUSE.put(id, context.isObjectReuseEnabled());
            List<String> rows = ROWS.get(id);
            List<RowData> held = new ArrayList<>();
            return new SinkWriter<>() {
                @Override
                public void write(RowData row, Context ctx) {
                    if (buffer) {
                        held.add(row);
                    } else {
                        add(row);
                    }
                }

                private void add(RowData row) {
                    String s = String.valueOf(converter.toExternal(row));
                    synchronized (rows) {
                        rows.add(s);
                    }
                }

                @Override
                public void flush(boolean endOfInput) {
                    held.forEach(this::add);
                    held.clear();
                }

                @Override
                public void close() {}
            };
        }
    }
}
