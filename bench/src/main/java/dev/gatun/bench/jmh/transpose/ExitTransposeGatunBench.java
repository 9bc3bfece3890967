package dev.gatun.bench.jmh.transpose;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.bench.rows.RowBatch;
import dev.gatun.transpose.entry.BatchWriter;
import dev.gatun.transpose.exit.ColumnarRowView;
import dev.gatun.transpose.exit.RowCopier;
import dev.gatun.transpose.types.TypeMapping;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Gatun's exit transpose over one sealed 4096-row batch (written once by the entry transpose; an
 * imported batch is read through the same vectors): {@code columnarView} reads every value of
 * every row through the reused {@link ColumnarRowView}; {@code copyToBinaryRows} materializes
 * each row into a {@code BinaryRowData}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class ExitTransposeGatunBench {
    @Param({"bid/binary", "mixed20/binary"})
    public String rows;

    private NativeAllocator allocator;
    private RecordBatch batch;
    private ColumnarRowView view;
    private RowCopier copier;
    private RowData.FieldGetter[] getters;

    @Setup
    public void setUp() {
        RowBatch input = RowBatch.of(rows);
        RowType type = input.shape().rowType();
        List<int[]> paths = new ArrayList<>();
        for (int i = 0; i < type.getFieldCount(); i++) {
            paths.add(new int[] {i});
        }
        allocator = NativeAllocator.create("exit-transpose-bench", Long.MAX_VALUE);
        try (BatchWriter writer = new BatchWriter(type, paths, TypeMapping.defaults(), RowBatch.ROWS, true, allocator)) {
            for (RowData row : input.rows()) {
                writer.write(row);
            }
            batch = writer.finish();
        }
        view = ColumnarRowView.over(batch, type, TypeMapping.defaults());
        copier = new RowCopier(type);
        getters = new RowData.FieldGetter[type.getFieldCount()];
        for (int i = 0; i < getters.length; i++) {
            LogicalType t = type.getTypeAt(i);
            getters[i] = RowData.createFieldGetter(t, i);
        }
    }

    @TearDown
    public void tearDown() {
        batch.close();
        allocator.close();
    }

    @Benchmark
    public void columnarView(Blackhole bh) {
        for (int r = 0; r < view.rowCount(); r++) {
            view.setRow(r);
            for (RowData.FieldGetter g : getters) {
                bh.consume(g.getFieldOrNull(view));
            }
        }
    }

    @Benchmark
    public void copyToBinaryRows(Blackhole bh) {
        for (int r = 0; r < view.rowCount(); r++) {
            view.setRow(r);
            bh.consume(copier.copy(view));
        }
    }
}
