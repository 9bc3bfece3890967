package dev.gatun.bench.e2e;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/** A sink that keeps nothing but still reads every field of every row, into a checksum. */
final class BlackholeSink implements Sink<RowData> {
    private static final long serialVersionUID = 1L;

    private final RowType type;
    private final String key;

    BlackholeSink(RowType type, String key) {
        this.type = type;
        this.key = key;
    }

    @Override
    public SinkWriter<RowData> createWriter(WriterInitContext context) {
        Checksums.putObjectReuse(key, context.isObjectReuseEnabled());
        return new Writer(RowHasher.of(type), key);
    }

    private static final class Writer implements SinkWriter<RowData> {
        private final RowHasher hasher;
        private final String key;
        private long rows;
        private long sum;

        Writer(RowHasher hasher, String key) {
            this.hasher = hasher;
            this.key = key;
        }

        @Override
        public void write(RowData row, Context context) {
            sum += hasher.hash(row);
            rows++;
        }

        @Override
        public void flush(boolean endOfInput) {}

        @Override
        public void close() {
            Checksums.add(key, rows, sum);
            Checksums.addTaskCpu(key, java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime());
        }
    }
}
