package dev.gatun.planner.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.RuntimeConverter;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.DynamicTableSink.DataStructureConverter;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;

/**
 * {@code 'connector' = 'gatun-test-retaining', 'id' = '...'}: a sink that keeps the row OBJECTS it
 * receives and reads them only at the end of input, as a batching sink does. Under Flink's
 * contract (object reuse off) every row it got is its own, so the values read at the end are the
 * values sent; a row object that was handed through and later overwritten would show up here.
 */
public final class RetainingSinkFactory extends IdSinkFactory {
    private static final Map<String, List<String>> ROWS = new ConcurrentHashMap<>();

    /** The rows (as {@code Row.toString()}) read at the end of input under {@code id}, sorted; forgets them. */
    public static List<String> take(String id) {
        List<String> rows = ROWS.remove(id);
        if (rows == null) {
            throw new IllegalStateException("no rows for retaining sink " + id);
        }
        List<String> sorted = new ArrayList<>(rows);
        sorted.sort(null);
        return sorted;
    }

    public RetainingSinkFactory() {
        super("gatun-test-retaining");
    }

    @Override
    DynamicTableSink create(ReadableConfig options, Context context) {
        return new RetainingSink(options.get(ID), context.getPhysicalRowDataType());
    }

    private record RetainingSink(String id, DataType type) implements DynamicTableSink {
        @Override
        public ChangelogMode getChangelogMode(ChangelogMode requested) {
            return ChangelogMode.all();
        }

        @Override
        public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
            return SinkV2Provider.of(new Retaining(id, context.createDataStructureConverter(type)));
        }

        @Override
        public DynamicTableSink copy() {
            return new RetainingSink(id, type);
        }

        @Override
        public String asSummaryString() {
            return "gatun-test-retaining(" + id + ")";
        }
    }

    private record Retaining(String id, DataStructureConverter converter) implements Sink<RowData> {
        @Override
        public SinkWriter<RowData> createWriter(WriterInitContext context) {
            converter.open(RuntimeConverter.Context.create(Thread.currentThread().getContextClassLoader()));
            List<RowData> kept = new ArrayList<>();
            return new SinkWriter<>() {
                @Override
                public void write(RowData row, Context ctx) {
                    kept.add(row);
                }

                @Override
                public void flush(boolean endOfInput) {
                    if (endOfInput) {
                        List<String> rows = new ArrayList<>();
                        kept.forEach(r -> rows.add(String.valueOf(converter.toExternal(r))));
                        ROWS.put(id, rows);
                    }
                }

                @Override
                public void close() {}
            };
        }
    }
}
