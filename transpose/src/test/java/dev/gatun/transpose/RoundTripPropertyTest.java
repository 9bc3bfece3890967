package dev.gatun.transpose;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.arrow.testing.RustRoundTrip;
import dev.gatun.transpose.entry.BatchWriter;
import dev.gatun.transpose.testing.RandomTypes;
import dev.gatun.transpose.testing.RandomValues;
import dev.gatun.transpose.testing.RowForms;
import dev.gatun.transpose.testing.Transposes;
import dev.gatun.transpose.types.TypeMapping;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Entry → exit equals the input, under Flink's own serializer equality, for random schemas (every
 * mapped type, nesting ≥ 3 levels) and random rows (see {@link RandomValues}), fed in every
 * {@link RowForms} shape, with random batch sizes and, for half the seeds, random row kinds.
 * Fixed seeds: a failure names its seed and reproduces.
 */
@ExtendWith(LeakCheckExtension.class)
class RoundTripPropertyTest {
    private static final int SEEDS = 60;
    private static final int RUST_SEEDS = 25;

    static Stream<Arguments> seedsAndForms() {
        List<Arguments> out = new ArrayList<>();
        for (long seed = 1; seed <= SEEDS; seed++) {
            for (RowForms form : RowForms.values()) {
                out.add(Arguments.of(seed, form));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "seed {0} {1}")
    @MethodSource("seedsAndForms")
    void entryThenExitGivesTheInput(long seed, RowForms form) {
        roundTrip(seed, form, UnaryOperator.identity());
    }

    static Stream<Arguments> rustSeeds() {
        List<Arguments> out = new ArrayList<>();
        for (long seed = 1; seed <= RUST_SEEDS; seed++) {
            out.add(Arguments.of(seed, seed % 2 == 0 ? RowForms.GENERIC : RowForms.BINARY_HEAP));
        }
        return out.stream();
    }

    /** The same through C Data export, arrow-rs import with full validation, export back and import. */
    @ParameterizedTest(name = "seed {0} {1}")
    @MethodSource("rustSeeds")
    void entryThenRustThenExitGivesTheInput(long seed, RowForms form) {
        roundTrip(seed, form, RustRoundTrip::roundTrip);
    }

    private static void roundTrip(long seed, RowForms form, UnaryOperator<RecordBatch> exchange) {
        Random random = new Random(seed);
        boolean nanos = seed % 3 != 0;
        TypeMapping types = new TypeMapping(nanos);
        RowType type = new RandomTypes(random, nanos).row(2 + random.nextInt(9));
        boolean changelog = seed % 2 == 0;
        RandomValues values = new RandomValues(random, 5 + random.nextInt(30));
        int count = random.nextInt(80);
        List<GenericRowData> expected = new ArrayList<>();
        List<RowData> inputs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            GenericRowData row = values.row(type);
            if (changelog) {
                row.setRowKind(values.kind());
            }
            expected.add(row);
            inputs.add(form.convert(row, type, random));
        }
        int batchRows = 1 + random.nextInt(32);
        String context = "seed " + seed + " " + form + ", batch rows " + batchRows;
        try (NativeAllocator allocator = Transposes.allocator("round-trip");
             BatchWriter writer = new BatchWriter(type, Transposes.allFields(type), types, batchRows, !changelog,
                     allocator)) {
            List<RecordBatch> batches = Transposes.writeAll(writer, inputs);
            assertEquals(changelog, writer.carriesRowKind(), context);
            for (RecordBatch b : batches) {
                assertEquals(writer.schema(), b.schema(), context);
            }
            Transposes.assertBatches(type, types, batches, expected, exchange, context);
        }
    }
}
