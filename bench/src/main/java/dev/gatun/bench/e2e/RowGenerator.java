package dev.gatun.bench.e2e;

import dev.gatun.bench.probe.TaskCpu;
import dev.gatun.bench.rows.RowFormat;
import dev.gatun.bench.rows.RowShape;
import dev.gatun.bench.rows.Shapes;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.table.data.RowData;

/** Row {@code index} of a shape, for {@code TightLoopGeneratorSource}: the same rows whatever the parallelism. */
final class RowGenerator implements GeneratorFunction<Long, RowData> {
    private static final long serialVersionUID = 1L;

    private final String shapeName;
    private final long seed;
    private final RowFormat format;
    private final String cpuKey;
    private transient RowShape shape;
    private transient RowFormat.Converter converter;

    RowGenerator(String shapeName, long seed, RowFormat format, String cpuKey) {
        this.shapeName = shapeName;
        this.seed = seed;
        this.format = format;
        this.cpuKey = cpuKey;
    }

    @Override
    public void open(SourceReaderContext context) {
        init();
    }

    private void init() {
        shape = Shapes.byName(shapeName);
        converter = format.converter(shape.rowType());
    }

    @Override
    public void close() {
        TaskCpu.recordSourceThread(cpuKey);
    }

    @Override
    public RowData map(Long index) {
        if (shape == null) {
            init();
        }
        return converter.convert(shape.row(seed, index));
    }
}
