package dev.gatun.planner.testing;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code 'connector' = 'gatun-checksum', 'id' = '...'}: a sink for outputs too large to keep, which
 * keeps per id the number of changelog rows and an order-independent checksum of them (the sum of a
 * 64-bit hash of each row's {@code +I[..]}-style text of Flink's internal values): a lost, repeated or
 * different row changes it.
 */
public final class ChecksumSinkFactory extends IdSinkFactory {

    private static final Map<String, Sum> SUMS = new ConcurrentHashMap<>();

    /** Rows and checksum of one sink id. */
    public record Checksum(long rows, long hashSum) {}

    private static final class Sum {
        final AtomicLong rows = new AtomicLong();
        final AtomicLong hashes = new AtomicLong();
    }

    public static String with(String id) {
        return "WITH ('connector' = 'gatun-checksum', 'id' = '" + id + "')";
    }

    /** What sink {@code id} received. */
    public static Checksum of(String id) {
        Sum s = SUMS.computeIfAbsent(id, k -> new Sum());
        return new Checksum(s.rows.get(), s.hashes.get());
    }

    /** FNV-1a 64 over the UTF-8 bytes, then a finalizing mix so that similar rows spread. */
    static long hash(String text) {
        long h = 0xcbf29ce484222325L;
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        return h;
    }

    public ChecksumSinkFactory() {
        super("gatun-checksum");
    }

    @Override
    DynamicTableSink create(ReadableConfig options, Context context) {
        return new ChecksumSink(options.get(ID),
                ((RowType) context.getPhysicalRowDataType().getLogicalType()).getChildren());
    }

    private record ChecksumSink(String id, List<LogicalType> types) implements DynamicTableSink {
        @Override
        public ChangelogMode getChangelogMode(ChangelogMode requested) {
            return requested;
        }

        @Override
        public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
            return SinkV2Provider.of(new Summing(id, types));
        }

        @Override
        public DynamicTableSink copy() {
            return new ChecksumSink(id, types);
        }

        @Override
        public String asSummaryString() {
            return "gatun-checksum(" + id + ")";
        }
    }

    private record Summing(String id, List<LogicalType> types) implements Sink<RowData> {
        @Override
        public SinkWriter<RowData> createWriter(WriterInitContext context) {
            RowData.FieldGetter[] getters = new RowData.FieldGetter[types.size()];
            for (int i = 0; i < getters.length; i++) {
                getters[i] = RowData.createFieldGetter(types.get(i), i);
            }
            Sum sum = SUMS.computeIfAbsent(id, k -> new Sum());
            return new SinkWriter<>() {
                @Override
                public void write(RowData row, Context ctx) {
                    StringBuilder sb = new StringBuilder(row.getRowKind().shortString()).append('[');
                    for (int i = 0; i < getters.length; i++) {
                        sb.append(i == 0 ? "" : ", ").append(getters[i].getFieldOrNull(row));
                    }
                    sum.hashes.addAndGet(hash(sb.append(']').toString()));
                    sum.rows.incrementAndGet();
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }
}
