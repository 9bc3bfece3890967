package dev.gatun.bench.jmh.transpose;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.operator.NativeOperator;
import dev.gatun.arrow.operator.OutputFormat;
import dev.gatun.arrow.types.Schema;
import dev.gatun.bench.rows.RowBatch;
import dev.gatun.planner.substrait.CalcTranslator;
import dev.gatun.transpose.entry.BatchWriter;
import dev.gatun.transpose.exit.BinaryRowExit;
import dev.gatun.transpose.exit.ColumnarRowView;
import dev.gatun.transpose.exit.RowCopier;
import dev.gatun.transpose.types.TypeMapping;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.calcite.FlinkTypeSystem;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
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
 * Gatun's exit transpose over one 4096-row batch (written once by the entry transpose; an imported
 * batch is read through the same vectors): {@code columnarView} reads every value of every row
 * through the reused {@link ColumnarRowView}; {@code copyToBinaryRows} materializes each row into a
 * {@code BinaryRowData}.
 *
 * <p>Into Flink's downstream copy (object reuse off, Flink's default: the chained output copies each
 * emitted row with {@code RowDataSerializer.copy}): {@code viewThenCopy} emits the view (copied
 * through Flink's generic {@code copyRowData}); {@code flinkRowsThenCopy} binds a batch that Rust
 * wrote in the Flink-rows format ({@link BinaryRowExit}: one bulk copy into a fresh {@code byte[]})
 * and emits {@code BinaryRowData}s (copied with one memcpy each). Object reuse on (no copy):
 * {@code viewEmit}, {@code flinkRowsEmit}, and {@code flinkRowsRead} reading every value like
 * {@code columnarView}. {@code pipeline*}: the whole perimeter per batch, entry transpose, identity
 * Calc in Rust, exit and downstream copy, in either output format; {@code calc*}: entry transpose
 * and the identity Calc only, so their difference is what writing Flink rows costs in Rust.
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
    private RowBatch input;
    private RecordBatch batch;
    private ColumnarRowView view;
    private RowCopier copier;
    private RowData.FieldGetter[] getters;
    private RowDataSerializer serializer;
    private BatchWriter writer;
    private NativeOperator arrowCalc;
    private NativeOperator rowsCalc;
    /** The identity Calc's result over {@link #batch}'s rows, in the Flink-rows format. */
    private RecordBatch flinkRows;
    private BinaryRowExit exit;

    @Setup
    public void setUp() {
        input = RowBatch.of(rows);
        RowType type = input.shape().rowType();
        List<int[]> paths = new ArrayList<>();
        for (int i = 0; i < type.getFieldCount(); i++) {
            paths.add(new int[] {i});
        }
        allocator = NativeAllocator.create("exit-transpose-bench", Long.MAX_VALUE);
        TypeMapping types = TypeMapping.defaults();
        writer = new BatchWriter(type, paths, types, RowBatch.ROWS, true, allocator);
        batch = write();
        view = ColumnarRowView.over(batch, type, types);
        copier = new RowCopier(type);
        getters = new RowData.FieldGetter[type.getFieldCount()];
        for (int i = 0; i < getters.length; i++) {
            LogicalType t = type.getTypeAt(i);
            getters[i] = RowData.createFieldGetter(t, i);
        }
        serializer = new RowDataSerializer(type);
        byte[] plan = identityPlan(type, paths, types);
        Schema output = new Schema(types.fields(type), Map.of());
        arrowCalc = NativeOperator.create(NativeOperator.Kind.CALC, plan, writer.schema(), output, OutputFormat.ARROW,
                allocator);
        rowsCalc = NativeOperator.create(NativeOperator.Kind.CALC, plan, writer.schema(), output,
                OutputFormat.FLINK_ROWS, allocator);
        flinkRows = rowsCalc.process(write(), null);
        exit = new BinaryRowExit(type.getFieldCount());
    }

    /** Every input column, in order, translated by the planner's own translator. */
    private static byte[] identityPlan(RowType type, List<int[]> paths, TypeMapping types) {
        FlinkTypeFactory factory = new FlinkTypeFactory(ExitTransposeGatunBench.class.getClassLoader(),
                FlinkTypeSystem.INSTANCE);
        RexBuilder rex = new RexBuilder(factory);
        List<RexNode> columns = new ArrayList<>();
        for (int i = 0; i < type.getFieldCount(); i++) {
            columns.add(rex.makeInputRef(factory.createFieldTypeFromLogicalType(type.getTypeAt(i)), i));
        }
        return new CalcTranslator(type, paths, types, List.of()).translate(columns, null, type);
    }

    /** The input rows as one sealed batch. */
    private RecordBatch write() {
        for (RowData row : input.rows()) {
            writer.write(row);
        }
        return writer.finish();
    }

    @TearDown
    public void tearDown() {
        flinkRows.close();
        rowsCalc.close();
        arrowCalc.close();
        writer.close();
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

    @Benchmark
    public void viewThenCopy(Blackhole bh) {
        for (int r = 0; r < view.rowCount(); r++) {
            view.setRow(r);
            bh.consume(serializer.copy(view));
        }
    }

    @Benchmark
    public void flinkRowsThenCopy(Blackhole bh) {
        exit.bind(flinkRows);
        for (int r = 0; r < exit.rowCount(); r++) {
            bh.consume(serializer.copy(exit.reusedRow(r)));
        }
    }

    @Benchmark
    public void viewEmit(Blackhole bh) {
        for (int r = 0; r < view.rowCount(); r++) {
            view.setRow(r);
            bh.consume(view);
        }
    }

    @Benchmark
    public void flinkRowsEmit(Blackhole bh) {
        exit.bind(flinkRows);
        for (int r = 0; r < exit.rowCount(); r++) {
            bh.consume(exit.reusedRow(r));
        }
    }

    @Benchmark
    public void flinkRowsRead(Blackhole bh) {
        exit.bind(flinkRows);
        for (int r = 0; r < exit.rowCount(); r++) {
            RowData row = exit.reusedRow(r);
            for (RowData.FieldGetter g : getters) {
                bh.consume(g.getFieldOrNull(row));
            }
        }
    }

    @Benchmark
    public void pipelineArrowViewThenCopy(Blackhole bh) {
        try (RecordBatch out = arrowCalc.process(write(), null)) {
            ColumnarRowView v = view.bind(out);
            for (int r = 0; r < v.rowCount(); r++) {
                v.setRow(r);
                bh.consume(serializer.copy(v));
            }
        }
        view.bind(batch);
    }

    @Benchmark
    public void pipelineFlinkRowsThenCopy(Blackhole bh) {
        try (RecordBatch out = rowsCalc.process(write(), null)) {
            exit.bind(out);
        }
        for (int r = 0; r < exit.rowCount(); r++) {
            bh.consume(serializer.copy(exit.reusedRow(r)));
        }
    }

    @Benchmark
    public int calcArrow() {
        try (RecordBatch out = arrowCalc.process(write(), null)) {
            return out.rowCount();
        }
    }

    @Benchmark
    public int calcFlinkRows() {
        try (RecordBatch out = rowsCalc.process(write(), null)) {
            return out.rowCount();
        }
    }
}
