package dev.gatun.bench.jmh.transpose;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.bench.nexmark.NexmarkGenerator;
import dev.gatun.transpose.entry.BatchWriter;
import dev.gatun.transpose.types.TypeMapping;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The entry of a Nexmark bid island with and without entry borrowing, per 4096 fresh events (what
 * the benchmark's source hands over: a new {@code GenericRowData} per event with lazy strings).
 * {@code copied}: Flink's chained copy with object reuse off ({@code RowDataSerializer.copy} of the
 * whole wide event, which also encodes every string of it), then the entry transpose; {@code borrowed}:
 * the entry transpose reads the source's row directly. Both write the fields the q1 island reads
 * (event_type, the bid's leaves and the three {@code dateTime}s of the rowtime column).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class EntryBorrowingBench {
    private static final int ROWS = 4096;
    private static final String EVENT = "ROW<event_type INT,"
            + " person ROW<id BIGINT, name STRING, emailAddress STRING, creditCard STRING, city STRING,"
            + " state STRING, `dateTime` TIMESTAMP(3), extra STRING>,"
            + " auction ROW<id BIGINT, itemName STRING, description STRING, initialBid BIGINT, reserve BIGINT,"
            + " `dateTime` TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra STRING>,"
            + " bid ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,"
            + " `dateTime` TIMESTAMP(3), extra STRING>>";

    private final RowData[] events = new RowData[ROWS];
    private NexmarkGenerator generator;
    private long nextEvent;
    private RowDataSerializer serializer;
    private NativeAllocator allocator;
    private BatchWriter writer;

    @Setup(Level.Trial)
    public void setUp() {
        RowType type = (RowType) LogicalTypeParser.parse(EVENT, EntryBorrowingBench.class.getClassLoader());
        serializer = new RowDataSerializer(type);
        generator = new NexmarkGenerator(1_700_000_000_000L, 10_000_000L);
        List<int[]> paths = List.of(new int[] {0}, new int[] {1, 6}, new int[] {2, 5}, new int[] {3, 0},
                new int[] {3, 1}, new int[] {3, 2}, new int[] {3, 3}, new int[] {3, 4}, new int[] {3, 5},
                new int[] {3, 6});
        allocator = NativeAllocator.create("entry-borrowing-bench", Long.MAX_VALUE);
        writer = new BatchWriter(type, paths, TypeMapping.defaults(), ROWS, true, allocator);
    }

    /** Fresh events for every batch, as a source makes them (not timed). */
    @Setup(Level.Invocation)
    public void freshEvents() {
        for (int i = 0; i < ROWS; i++) {
            events[i] = generator.event(nextEvent++);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        writer.close();
        allocator.close(); // throws if a batch leaked
    }

    @Benchmark
    public int copied() {
        for (RowData event : events) {
            writer.write(serializer.copy(event));
        }
        return finish();
    }

    @Benchmark
    public int borrowed() {
        for (RowData event : events) {
            writer.write(event);
        }
        return finish();
    }

    private int finish() {
        try (RecordBatch batch = writer.finish()) {
            return batch.rowCount();
        }
    }
}
