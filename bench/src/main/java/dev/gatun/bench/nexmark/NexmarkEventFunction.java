package dev.gatun.bench.nexmark;

import dev.gatun.bench.probe.TaskCpu;
import dev.gatun.bench.rows.RowFormat;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.table.data.RowData;

/** Event {@code index} of the Nexmark stream, for {@link TightLoopGeneratorSource}: the same events whatever the parallelism. */
final class NexmarkEventFunction implements GeneratorFunction<Long, RowData> {
    private static final long serialVersionUID = 1L;

    private final long baseTime;
    private final long eventsPerSecond;
    private final RowFormat format;
    private final String cpuKey;
    private transient NexmarkGenerator generator;
    private transient RowFormat.Converter converter;

    NexmarkEventFunction(long baseTime, long eventsPerSecond, RowFormat format, String cpuKey) {
        this.baseTime = baseTime;
        this.eventsPerSecond = eventsPerSecond;
        this.format = format;
        this.cpuKey = cpuKey;
    }

    @Override
    public void open(SourceReaderContext context) {
        init();
    }

    private void init() {
        generator = new NexmarkGenerator(baseTime, eventsPerSecond);
        converter = format.converter(Nexmark.EVENT_TYPE);
    }

    @Override
    public void close() {
        TaskCpu.recordSourceThread(cpuKey);
    }

    @Override
    public RowData map(Long index) {
        if (generator == null) {
            init();
        }
        return converter.convert(generator.event(index));
    }
}
