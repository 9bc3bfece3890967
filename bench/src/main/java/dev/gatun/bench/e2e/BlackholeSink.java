package dev.gatun.bench.e2e;

import dev.gatun.bench.probe.TaskCpu;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * A sink that keeps nothing but still reads every field of every row, into a checksum of the
 * result the rows make: inserted rows count, retracted ones are taken back.
 */
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
            // a changelog adds what it inserts and takes back what it retracts: the sum is the
            // final result's, whatever intermediate updates mini-batch timing produced
            long sign = row.getRowKind() == RowKind.INSERT || row.getRowKind() == RowKind.UPDATE_AFTER ? 1 : -1;
            sum += sign * hasher.hashAsInsert(row);
            rows += sign;
        }

        @Override
        public void flush(boolean endOfInput) {}

        @Override
        public void close() {
            Checksums.add(key, rows, sum);
            TaskCpu.recordCurrentThread(key);
        }
    }
}
