package dev.gatun.arrow.operator;

import static dev.gatun.arrow.operator.NativeOperator.Kind.CALC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gatun.arrow.batch.BatchState;
import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.arrow.testing.OurValues;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.Schema;
import dev.gatun.ffm.GatunLibrary;
import dev.gatun.ffm.NativeArrowException;
import dev.gatun.ffm.NativeException;
import dev.gatun.ffm.NativeExecutionException;
import dev.gatun.ffm.NativePanicException;
import dev.gatun.ffm.NativePlanException;
import io.substrait.proto.Expression;
import io.substrait.proto.ExtendedExpression;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Random plans (io.substrait:core) and mismatched batches through the Calc kind of {@link NativeOperator}: each case
 * evaluates correctly (schema, row count, and values where {@link RandomExpressions} has an
 * oracle) or fails with a {@link NativeException} naming the problem; never a panic, a crash or a
 * leak. Fixed seeds: a failure names its case number and replays. The Rust side fuzzes plan bytes
 * over one fixed schema (native/tests/c_abi/fuzz.rs); this adds random schemas of every mapped
 * type, well-typed random expression trees checked against Java, targeted plan errors and
 * mismatched batches, all through the Java boundary.
 */
@ExtendWith(LeakCheckExtension.class)
class CalcFuzzTest {
    private static final NativeAllocator ALLOCATOR = NativeAllocator.root();

    /** A random well-typed plan: input schema, plan, expected output and the projections' oracles. */
    private record Case(Schema input, PlanBuilder plan, List<Field> outputs, List<RandomExpressions.Node> projections,
                        RandomExpressions.Node filter) {
        Schema expected() {
            return new Schema(outputs, Map.of());
        }

        boolean mayRaise() {
            return (filter != null && filter.mayRaise()) || projections.stream().anyMatch(RandomExpressions.Node::mayRaise);
        }
    }

    private static Case randomCase(Random random) {
        Schema input = RandomExpressions.randomSchema(random);
        PlanBuilder plan = new PlanBuilder(input);
        RandomExpressions gen = new RandomExpressions(random, input, plan);
        int n = random.nextInt(5);
        List<Field> outputs = new ArrayList<>();
        List<RandomExpressions.Node> projections = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            RandomExpressions.Node node = gen.any(random.nextInt(4));
            plan.project("out" + i, node.expr());
            outputs.add(Field.nullable("out" + i, node.type()));
            projections.add(node);
        }
        RandomExpressions.Node filter = null;
        if (random.nextInt(3) == 0) {
            filter = gen.of(ArrowType.BOOL, random.nextInt(4));
            plan.filter(filter.expr());
        }
        return new Case(input, plan, outputs, projections, filter);
    }

    @Test
    void randomWellTypedPlansEvaluateLikeTheJavaOracle() {
        Random random = new Random(0x6A7A_5EEDL);
        int evaluated = 0, raised = 0, checkedValues = 0;
        for (int i = 0; i < 3000; i++) {
            Case c = randomCase(random);
            byte[] bytes = c.plan().build();
            try (NativeOperator calc = create(i, bytes, c.input(), c.expected())) {
                assertEquals(withRowKind(c.expected(), c.input()), calc.outputSchema(), "case " + i);
                int rows = random.nextInt(5) == 0 ? 0 : 1 + random.nextInt(40);
                List<List<Object>> columns = RandomExpressions.randomColumns(c.input(), rows, random);
                RecordBatch in = OurValues.batch(c.input(), columns, rows);
                RecordBatch out;
                try {
                    out = calc.process(in, null);
                } catch (NativeExecutionException e) {
                    assertTrue(c.mayRaise(), "case " + i + " raised without a raising function: " + e.getMessage()
                            + "\nplan: " + c.plan().plan());
                    assertTrue(e.getMessage().startsWith("gatun_operator_process") && e.getMessage().contains("by zero"),
                            e.getMessage());
                    raised++;
                    continue;
                }
                try (out) {
                    checkedValues += check(i, c, columns, rows, out);
                    evaluated++;
                }
            }
        }
        assertTrue(evaluated > 2000 && raised > 10 && checkedValues > 10_000,
                evaluated + " evaluated, " + raised + " raised, " + checkedValues + " values checked");
    }

    /** Checks one result against the oracles; returns how many values it compared. */
    private static int check(int i, Case c, List<List<Object>> columns, int rows, RecordBatch out) {
        List<Integer> kept = new ArrayList<>();
        boolean keptKnown = true;
        for (int r = 0; r < rows; r++) {
            Object keep = c.filter() == null ? Boolean.TRUE : c.filter().oracle().at(columns, r);
            if (keep == RandomExpressions.UNKNOWN) {
                keptKnown = false;
            } else if (Boolean.TRUE.equals(keep)) {
                kept.add(r);
            }
        }
        if (!keptKnown) {
            assertTrue(out.rowCount() <= rows, "case " + i + ": more rows out than in");
            return 0;
        }
        assertEquals(kept.size(), out.rowCount(), "case " + i + " row count; plan " + c.plan().plan());
        List<List<Object>> actual = OurValues.columns(out);
        int compared = 0;
        for (int p = 0; p < c.projections().size(); p++) {
            for (int k = 0; k < kept.size(); k++) {
                Object want = c.projections().get(p).oracle().at(columns, kept.get(k));
                if (want != RandomExpressions.UNKNOWN) {
                    assertEquals(want, actual.get(p).get(k), "case " + i + " out" + p + " row " + kept.get(k)
                            + " of input " + columns + "\nplan: " + c.plan().plan());
                    compared++;
                }
            }
        }
        int kinds = c.input().size() - 1;
        if (kinds >= 0 && c.input().field(kinds).name().equals(NativeOperator.ROW_KIND_COLUMN)) {
            for (int k = 0; k < kept.size(); k++) {
                assertEquals(columns.get(kinds).get(kept.get(k)), actual.get(c.projections().size()).get(k),
                        "case " + i + " row kind");
            }
        }
        return compared;
    }

    @Test
    void brokenPlansFailWithANativeExceptionNamingTheProblem() {
        Random random = new Random(0xB40C_E2L);
        int[] rejected = new int[8];
        int compiled = 0;
        for (int i = 0; i < 2400; i++) {
            Case c = randomCase(random);
            int kind = i % 8;
            switch (kind) {
                case 0, 1 -> { // corrupted or truncated bytes of a valid plan
                    byte[] bytes = mutate(c.plan().build(), random, kind == 1);
                    try (NativeOperator calc = NativeOperator.create(CALC, bytes, c.input(), c.expected(),
                            OutputFormat.ARROW, ALLOCATOR)) {
                        compiled++;
                        runOnce(calc, c.input(), random);
                    } catch (NativeException e) {
                        assertNotPanic(e);
                        assertTrue(e.getMessage().startsWith("gatun_operator_create"), e.getMessage());
                        rejected[kind]++;
                    }
                }
                case 2 -> { // random bytes
                    byte[] bytes = new byte[random.nextInt(120)];
                    random.nextBytes(bytes);
                    try (NativeOperator calc = NativeOperator.create(CALC, bytes, c.input(), c.expected(),
                            OutputFormat.ARROW, ALLOCATOR)) {
                        compiled++;
                        runOnce(calc, c.input(), random);
                    } catch (NativeException e) {
                        assertNotPanic(e);
                        rejected[kind]++;
                    }
                }
                case 3 -> { // the expected output type of one projection is wrong
                    if (c.outputs().isEmpty()) {
                        continue;
                    }
                    int p = random.nextInt(c.outputs().size());
                    ArrowType wrong = otherType(c.outputs().get(p).type(), random);
                    List<Field> outputs = new ArrayList<>(c.outputs());
                    outputs.set(p, Field.nullable("out" + p, wrong));
                    expectPlanError(i, c.plan().build(), c.input(), new Schema(outputs, Map.of()), "`out" + p + "`",
                            "differs from the expected type");
                    rejected[kind]++;
                }
                case 4 -> { // a column reference past the input
                    RandomExpressions gen = new RandomExpressions(random, c.input(), c.plan());
                    int column = gen.baseColumns() + random.nextInt(3);
                    c.plan().project("bad", c.plan().call("is_null", ArrowType.BOOL, PlanBuilder.field(column)));
                    expectPlanError(i, c.plan().build(), c.input(), withOutput(c, "bad", ArrowType.BOOL), "`bad`",
                            "the index is " + column);
                    rejected[kind]++;
                }
                case 5 -> { // a function nobody admits
                    String name = "gatun_no_such_function_" + random.nextInt(1000);
                    c.plan().project("bad", c.plan().call(name, ArrowType.INT32, PlanBuilder.literal(ArrowType.INT32, 1)));
                    expectPlanError(i, c.plan().build(), c.input(), withOutput(c, "bad", ArrowType.INT32), "`bad`",
                            "Unsupported function name: \"" + name + "\"");
                    rejected[kind]++;
                }
                case 6 -> { // an admitted function with argument types it does not admit
                    Expression a = PlanBuilder.literal(ArrowType.INT32, 1);
                    Expression b = PlanBuilder.literal(ArrowType.INT64, 2L);
                    String[] names = {"gatun_flink_add", "gatun_flink_divide", "equal", "add"};
                    String name = names[random.nextInt(names.length)];
                    ArrowType type = name.equals("equal") ? ArrowType.BOOL : ArrowType.INT64;
                    c.plan().project("bad", c.plan().call(name, type, a, b));
                    expectPlanError(i, c.plan().build(), c.input(), withOutput(c, "bad", type), "`bad`", "Int32", "Int64");
                    rejected[kind]++;
                }
                default -> { // a filter that is not BOOLEAN, or an output schema of another width
                    if (random.nextBoolean()) {
                        c.plan().filter(PlanBuilder.literal(ArrowType.INT32, 7));
                        expectPlanError(i, c.plan().build(), c.input(), c.expected(), "filter", "expected BOOLEAN");
                    } else {
                        List<Field> outputs = new ArrayList<>(c.outputs());
                        outputs.add(Field.nullable("extra", ArrowType.INT32));
                        expectPlanError(i, c.plan().build(), c.input(), new Schema(outputs, Map.of()),
                                "projections, the expected output schema has " + outputs.size() + " columns");
                    }
                    rejected[kind]++;
                }
            }
            assertEquals(0, GatunLibrary.stats().liveHandles(), "case " + i);
        }
        for (int k = 0; k < rejected.length; k++) {
            assertTrue(rejected[k] > 100, "kind " + k + " rejected only " + rejected[k] + " (" + compiled + " compiled)");
        }
    }

    private static Schema withOutput(Case c, String name, ArrowType type) {
        List<Field> outputs = new ArrayList<>(c.outputs());
        outputs.add(Field.nullable(name, type));
        return new Schema(outputs, Map.of());
    }

    /** The plan fails to compile with a plan error whose message contains every one of {@code words}. */
    private static void expectPlanError(int i, byte[] plan, Schema input, Schema expected, String... words) {
        NativeException e = assertThrows(NativePlanException.class,
                () -> NativeOperator.create(CALC, plan, input, expected, OutputFormat.ARROW, ALLOCATOR).close(),
                () -> "case " + i + " compiled");
        String m = e.getMessage();
        assertTrue(m.startsWith("gatun_operator_create"), m);
        // a NUL inside a quoted literal crosses as U+2400 (native/src/ffi_guard.rs write_message):
        // the message is never cut short
        assertTrue(m.indexOf(0) < 0, m);
        for (String w : words) {
            assertTrue(m.contains(w), "case " + i + " should say `" + w + "`: " + m);
        }
    }

    private static void assertNotPanic(NativeException e) {
        if (e instanceof NativePanicException) {
            fail("native panic: " + e.getMessage(), e);
        }
    }

    private static void runOnce(NativeOperator calc, Schema input, Random random) {
        int rows = random.nextInt(20);
        RecordBatch in = OurValues.batch(input, RandomExpressions.randomColumns(input, rows, random), rows);
        try (RecordBatch out = calc.process(in, null)) {
            assertTrue(out.rowCount() <= rows);
            assertEquals(calc.outputSchema(), out.schema());
        } catch (NativeException e) {
            assertNotPanic(e);
            assertTrue(e.getMessage().startsWith("gatun_operator_process"), e.getMessage());
        }
    }

    private static byte[] mutate(byte[] plan, Random random, boolean truncate) {
        if (truncate) {
            return java.util.Arrays.copyOf(plan, random.nextInt(Math.max(1, plan.length)));
        }
        byte[] bytes = plan.clone();
        for (int k = 0; k <= random.nextInt(4); k++) {
            int at = random.nextInt(bytes.length);
            if (random.nextBoolean()) {
                bytes[at] ^= (byte) (1 << random.nextInt(8));
            } else {
                bytes[at] = (byte) random.nextInt(256);
            }
        }
        return bytes;
    }

    private static ArrowType otherType(ArrowType t, Random random) {
        ArrowType other;
        do {
            other = RandomExpressions.SCALARS.get(random.nextInt(RandomExpressions.SCALARS.size()));
        } while (other.equals(t));
        return other;
    }

    // ---- mismatched batches ----

    @Test
    void mismatchedBatchesAreRejectedInJavaAndInRust() {
        Random random = new Random(0xBA7C_4E5L);
        int rustRejected = 0;
        for (int n = 0; n < 1600; n++) {
            int i = n;
            Schema input = RandomExpressions.randomSchema(random);
            PlanBuilder plan = new PlanBuilder(input);
            RandomExpressions gen = new RandomExpressions(random, input, plan);
            List<Field> outputs = new ArrayList<>();
            for (int col = 0; col < gen.baseColumns(); col++) {
                plan.project("out" + col, PlanBuilder.field(col));
                Field f = input.field(col);
                outputs.add(new Field("out" + col, f.type(), f.nullable(), f.children(), f.metadata()));
            }
            // Rust checks UTF-8 only where it reads text (a column copied through keeps its bytes)
            for (int col = 0; col < gen.baseColumns(); col++) {
                if (input.field(col).type() instanceof ArrowType.Utf8) {
                    plan.project("length" + col, plan.call("gatun_flink_char_length", ArrowType.INT32, PlanBuilder.field(col)));
                    outputs.add(Field.nullable("length" + col, ArrowType.INT32));
                }
            }
            try (NativeOperator calc = create(i, plan.build(), input, new Schema(outputs, Map.of()))) {
                Mismatch m = mismatch(input, random);
                int rows = 1 + random.nextInt(30);
                Supplier<RecordBatch> batch = () -> OurValues.batch(m.schema(),
                        m.columns().apply(RandomExpressions.randomColumns(m.schema(), rows, new Random(rows))), rows);

                RecordBatch wrong = batch.get();
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> calc.process(wrong, null),
                        () -> "case " + i + " (" + m.what() + ") was accepted");
                assertTrue(e.getMessage().contains("differs from the operator's input schema"), e.getMessage());
                assertEquals(BatchState.RELEASED, wrong.state());

                if (m.rustDetects()) {
                    RecordBatch raw = batch.get();
                    NativeException rust = assertThrows(NativeException.class, () -> calc.processWithoutChecks(raw, null).close(),
                            () -> "case " + i + " (" + m.what() + ") passed Rust's check");
                    assertTrue(rust instanceof NativeArrowException && rust.getMessage().startsWith("gatun_operator_process")
                                    && rust.getMessage().contains(m.rustWords()),
                            "case " + i + " (" + m.what() + "): " + rust.getMessage());
                    rustRejected++;
                }
                runOnce(calc, input, random);
            }
        }
        assertTrue(rustRejected >= 1000, rustRejected + " mismatched batches reached Rust");
    }

    /**
     * How a batch differs from the handle's input: its schema, a rewrite of its values, whether
     * Rust can see the difference (a C Data array carries no types, only buffer and child counts),
     * and words Rust's message must contain.
     */
    private record Mismatch(Schema schema, java.util.function.UnaryOperator<List<List<Object>>> columns,
                            String what, boolean rustDetects, String rustWords) {}

    private static Mismatch mismatch(Schema input, Random random) {
        List<Field> fields = new ArrayList<>(input.fields());
        int base = fields.size() - (fields.getLast().name().equals(NativeOperator.ROW_KIND_COLUMN) ? 1 : 0);
        int col = random.nextInt(base);
        Field f = fields.get(col);
        String shape = "does not match the input schema";
        switch (random.nextInt(7)) {
            case 0 -> {
                fields.remove(col);
                return new Mismatch(schemaOf(fields), x -> x, "column " + col + " missing", true, shape);
            }
            case 1 -> {
                fields.add(col, Field.nullable("extra", ArrowType.INT64));
                return new Mismatch(schemaOf(fields), x -> x, "extra column", true, shape);
            }
            case 2 -> {
                if (base == fields.size()) {
                    fields.add(Field.notNull(NativeOperator.ROW_KIND_COLUMN, ArrowType.INT8));
                    return new Mismatch(schemaOf(fields), x -> x, "unexpected row kinds", true, shape);
                }
                fields.removeLast();
                return new Mismatch(schemaOf(fields), x -> x, "row kinds missing", true, shape);
            }
            case 3 -> { // a type of another layout
                Field other;
                do {
                    other = RandomExpressions.COLUMN_TYPES.get(random.nextInt(RandomExpressions.COLUMN_TYPES.size()));
                } while (layout(other).equals(layout(f)));
                fields.set(col, new Field(f.name(), other.type(), true, other.children(), Map.of()));
                return new Mismatch(schemaOf(fields), x -> x, f.type() + " as " + other.type(), true, shape);
            }
            case 4 -> { // NULLs in a NOT NULL column
                if (f.nullable() || f.type() instanceof ArrowType.Null) {
                    fields.set(col, new Field(f.name(), f.type(), false, f.children(), f.metadata()));
                    return new Mismatch(schemaOf(fields), x -> x, "nullability", false, "");
                }
                fields.set(col, new Field(f.name(), f.type(), true, f.children(), f.metadata()));
                return new Mismatch(schemaOf(fields), x -> withNullAt(x, col), "NULL in NOT NULL " + f.name(), true, "null");
            }
            case 5 -> { // bytes that are not UTF-8 where the handle reads strings
                if (f.type() instanceof ArrowType.Utf8) {
                    fields.set(col, new Field(f.name(), ArrowType.BINARY, f.nullable(), List.of(), Map.of()));
                    return new Mismatch(schemaOf(fields), x -> withBadUtf8(x, col), "invalid UTF-8", true, "utf");
                }
                fields.set(col, new Field(f.name() + "_renamed", f.type(), f.nullable(), f.children(), f.metadata()));
                return new Mismatch(schemaOf(fields), x -> x, "renamed", false, "");
            }
            default -> { // a type of the same layout: only Java can tell
                Field other;
                do {
                    other = RandomExpressions.COLUMN_TYPES.get(random.nextInt(RandomExpressions.COLUMN_TYPES.size()));
                } while (other.type().equals(f.type()));
                fields.set(col, new Field(f.name(), other.type(), f.nullable() || other.type() instanceof ArrowType.Null,
                        other.children(), Map.of()));
                boolean differentLayout = !layout(other).equals(layout(f));
                return new Mismatch(schemaOf(fields), x -> x, f.type() + " as " + other.type(), differentLayout, shape);
            }
        }
    }

    /** Buffer and child counts of a field's C Data array: what Rust can compare. */
    private static List<Integer> layout(Field f) {
        return switch (f.type()) {
            case ArrowType.Null n -> List.of(0, 0);
            case ArrowType.Utf8 u -> List.of(3, 0);
            case ArrowType.Binary b -> List.of(3, 0);
            case ArrowType.ListType l -> List.of(2, 1);
            case ArrowType.StructType s -> List.of(1, f.children().size());
            default -> List.of(2, 0);
        };
    }

    private static Schema schemaOf(List<Field> fields) {
        return new Schema(fields, Map.of());
    }

    private static List<List<Object>> withNullAt(List<List<Object>> columns, int col) {
        List<List<Object>> copy = new ArrayList<>(columns);
        List<Object> values = new ArrayList<>(copy.get(col));
        values.set(values.size() - 1, null);
        copy.set(col, values);
        return copy;
    }

    private static List<List<Object>> withBadUtf8(List<List<Object>> columns, int col) {
        List<List<Object>> copy = new ArrayList<>(columns);
        List<Object> values = new ArrayList<>(copy.get(col));
        values.set(0, new dev.gatun.arrow.testing.Bin(new byte[] {'a', (byte) 0xC3, (byte) 0x28, (byte) 0xFF}));
        copy.set(col, values);
        return copy;
    }

    // ---- helpers ----

    private static NativeOperator create(int i, byte[] plan, Schema input, Schema expected) {
        try {
            return NativeOperator.create(CALC, plan, input, expected, OutputFormat.ARROW, ALLOCATOR);
        } catch (NativeException e) {
            throw new AssertionError("case " + i + ": a well-typed plan was rejected: " + e.getMessage()
                    + "\ninput " + input + "\nplan " + parse(plan), e);
        }
    }

    private static String parse(byte[] plan) {
        try {
            return ExtendedExpression.parseFrom(plan).toString();
        } catch (Exception e) {
            return e.toString();
        }
    }

    private static Schema withRowKind(Schema expected, Schema input) {
        if (!input.fields().getLast().name().equals(NativeOperator.ROW_KIND_COLUMN)) {
            return expected;
        }
        List<Field> fields = new ArrayList<>(expected.fields());
        fields.add(input.fields().getLast());
        return new Schema(fields, Map.of());
    }
}
