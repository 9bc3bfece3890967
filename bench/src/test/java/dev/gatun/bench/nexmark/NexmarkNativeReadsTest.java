package dev.gatun.bench.nexmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.bench.e2e.Queries;
import dev.gatun.bench.e2e.Query;
import dev.gatun.bench.rows.RowFormat;
import dev.gatun.bench.rows.RowShape;
import dev.gatun.planner.Gatun;
import dev.gatun.planner.runtime.NativeCalcSpec;
import dev.gatun.planner.rewrite.CalcDecision;
import dev.gatun.planner.rewrite.PlanReport;
import dev.gatun.planner.runtime.IslandOperator;
import java.lang.reflect.InvocationHandler;
import java.math.BigDecimal;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The native island of Nexmark q0, q1 and q2 (planned with {@code gatun.native.force}) is fused with
 * the table's WatermarkAssigner and computed-column Calc, so it starts at the source's whole event
 * row and reads {@code event_type}, the three {@code dateTime}s the rowtime column chooses from, and
 * only the {@code bid} fields the query uses: no other field of {@code person} or {@code auction};
 * and at run time its operator never touches an unread field (a row whose other getters throw).
 */
class NexmarkNativeReadsTest {
    /** Per query, the read paths of its native Calc by name. */
    private static final Map<String, List<String>> READS = Map.of(
            "q0", List.of("event_type", "person.dateTime", "auction.dateTime", "bid.auction", "bid.bidder",
                    "bid.price", "bid.dateTime", "bid.extra"),
            "q1", List.of("event_type", "person.dateTime", "auction.dateTime", "bid.auction", "bid.bidder",
                    "bid.price", "bid.dateTime", "bid.extra"),
            "q2", List.of("event_type", "person.dateTime", "auction.dateTime", "bid.auction", "bid.price",
                    "bid.dateTime"));
    private static final int EVENTS = 5_000;

    /** The spec of the query's native Calc (the one above the WatermarkAssigner). */
    private static NativeCalcSpec plan(Query query) {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        assertTrue(Gatun.enable(tEnv));
        tEnv.getConfig().set("gatun.native.force", "true");
        query.ddl().statements(10, 1, RowFormat.GENERIC).forEach(tEnv::executeSql);
        PlanReport report = PlanReport.start();
        try {
            tEnv.explainSql(query.sql());
            List<NativeCalcSpec> specs = report.decisions().stream().filter(CalcDecision::isNative)
                    .map(CalcDecision::spec).toList();
            assertEquals(1, specs.size(), query.id() + ": " + report.decisions());
            return specs.get(0);
        } finally {
            report.stop();
        }
    }

    private static String name(RowType type, int[] path) {
        StringBuilder name = new StringBuilder();
        for (int i = 0; i < path.length; i++) {
            RowType.RowField field = type.getFields().get(path[i]);
            name.append(i == 0 ? "" : ".").append(field.getName());
            if (i + 1 < path.length) {
                type = (RowType) field.getType();
            }
        }
        return name.toString();
    }

    @ParameterizedTest
    @ValueSource(strings = {"q0", "q1", "q2"})
    void theNativeCalcReadsOnlyTheBidFieldsItNeeds(String id) {
        NativeCalcSpec spec = plan(Queries.select(id).get(0));
        List<String> reads = spec.readPaths().stream().map(p -> name(spec.inputType(), p)).toList();
        assertEquals(READS.get(id), reads, id + " reads");
        for (int[] path : spec.readPaths()) {
            String field = name(spec.inputType(), path);
            assertFalse((field.startsWith("person") || field.startsWith("auction")) && !field.endsWith(".dateTime"),
                    id + " reads " + field);
        }
        assertTrue(spec.assignsWatermarks(), id + ": the island is fused with the WatermarkAssigner");
        // the island starts at the source: its input is the whole event row, and the read paths prune
        assertTrue(spec.inputType().getFieldNames().containsAll(List.of("person", "auction", "bid")), id + " input "
                + spec.inputType());
    }

    @ParameterizedTest
    @ValueSource(strings = {"q0", "q1", "q2"})
    void atRunTimeTheOperatorTouchesOnlyTheReadFields(String id) throws Exception {
        NativeCalcSpec spec = plan(Queries.select(id).get(0));
        RowType input = spec.inputType();
        NexmarkGenerator generator = new NexmarkGenerator(RowShape.BASE_MILLIS, Nexmark.DEFAULT_EVENTS_PER_SECOND);
        List<RowData> expected = new ArrayList<>();
        int bids = 0;
        try (OneInputStreamOperatorTestHarness<RowData, RowData> harness =
                     new OneInputStreamOperatorTestHarness<>(new IslandOperator(spec))) {
            harness.setup(new RowDataSerializer(spec.outputType())); // copies each row off the reused view
            harness.open();
            for (long i = 0; i < EVENTS; i++) {
                GenericRowData event = generator.event(i);
                harness.processElement(new StreamRecord<>(tripwire(calcInput(event, input), input, spec.readPaths())));
                if (event.getInt(0) == Nexmark.BID) {
                    bids++;
                    RowData bid = event.getRow(3, 7);
                    if (!id.equals("q2") || bid.getLong(0) % 123 == 0) {
                        expected.add(expectedRow(id, bid, spec.outputType()));
                    }
                }
            }
            harness.endInput();
            List<String> out = new ArrayList<>();
            for (RowData row : harness.extractOutputValues()) {
                out.add(render(row, spec.outputType()));
            }
            List<String> want = expected.stream().map(r -> render(r, spec.outputType())).toList();
            assertEquals(want.size(), out.size(), id + " rows of " + bids + " bids");
            assertEquals(new HashSet<>(want), new HashSet<>(out), id);
            assertTrue(!out.isEmpty(), id + " produced rows");
        }
    }

    /** The tripwire is armed: with one read path left out, the operator trips over it. */
    @org.junit.jupiter.api.Test
    void aFieldLeftOutOfTheTripwireTrips() throws Exception {
        NativeCalcSpec spec = plan(Queries.select("q2").get(0));
        List<int[]> allButPrice = spec.readPaths().stream()
                .filter(p -> !name(spec.inputType(), p).equals("bid.price")).toList();
        assertEquals(spec.readPaths().size() - 1, allButPrice.size());
        NexmarkGenerator generator = new NexmarkGenerator(RowShape.BASE_MILLIS, Nexmark.DEFAULT_EVENTS_PER_SECOND);
        try (OneInputStreamOperatorTestHarness<RowData, RowData> harness =
                     new OneInputStreamOperatorTestHarness<>(new IslandOperator(spec))) {
            harness.setup(new RowDataSerializer(spec.outputType()));
            harness.open();
            Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> {
                for (long i = 0; i < 100; i++) {
                    harness.processElement(new StreamRecord<>(tripwire(calcInput(generator.event(i), spec.inputType()),
                            spec.inputType(), allButPrice)));
                }
                harness.endInput();
            });
            String messages = "";
            for (Throwable t = e; t != null; t = t.getCause()) {
                messages += t.getMessage() + " | ";
            }
            assertTrue(messages.contains("unread field price"), messages);
        }
    }

    /** The Calc's input row: what the WatermarkAssigner hands it (the stock computed-column Calc's output). */
    private static GenericRowData calcInput(GenericRowData event, RowType input) {
        int kind = event.getInt(0);
        RowData row = event.getRow(kind + 1, 0);
        TimestampData dateTime = row.getTimestamp(kind == Nexmark.PERSON ? 6 : 5, 3);
        GenericRowData out = new GenericRowData(input.getFieldCount());
        for (int i = 0; i < input.getFieldCount(); i++) {
            out.setField(i, switch (input.getFieldNames().get(i)) {
                case "event_type" -> event.getField(0);
                case "person" -> event.getField(1);
                case "auction" -> event.getField(2);
                case "bid" -> event.getField(3);
                case "dateTime" -> dateTime;
                default -> throw new IllegalArgumentException(input.toString());
            });
        }
        return out;
    }

    /** What stock Flink computes for one bid (q2's filter is applied by the caller). */
    private static RowData expectedRow(String id, RowData bid, RowType output) {
        return switch (id) {
            case "q0" -> GenericRowData.of(bid.getLong(0), bid.getLong(1), bid.getLong(2), bid.getTimestamp(5, 3),
                    bid.getString(6));
            case "q1" -> {
                DecimalType price = (DecimalType) output.getTypeAt(2);
                yield GenericRowData.of(bid.getLong(0), bid.getLong(1), DecimalData.fromBigDecimal(
                        new BigDecimal("0.908").multiply(BigDecimal.valueOf(bid.getLong(2))), price.getPrecision(),
                        price.getScale()), bid.getTimestamp(5, 3), bid.getString(6));
            }
            default -> GenericRowData.of(bid.getLong(0), bid.getLong(2));
        };
    }

    private static String render(RowData row, RowType type) {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < type.getFieldCount(); i++) {
            LogicalType t = type.getTypeAt(i);
            values.add(String.valueOf(RowData.createFieldGetter(t, i).getFieldOrNull(row)));
        }
        return values.toString();
    }

    /**
     * {@code row} behind a proxy whose field getters throw for any field outside the read paths,
     * even {@code isNullAt}; a read ROW field is wrapped the same way for its nested paths.
     */
    static RowData tripwire(RowData row, RowType type, List<int[]> paths) {
        Map<Integer, List<int[]>> nested = new HashMap<>();
        Set<Integer> whole = new HashSet<>();
        for (int[] p : paths) {
            if (p.length == 1) {
                whole.add(p[0]);
            } else {
                nested.computeIfAbsent(p[0], k -> new ArrayList<>()).add(java.util.Arrays.copyOfRange(p, 1, p.length));
            }
        }
        InvocationHandler handler = (proxy, method, args) -> {
            if (args != null && args.length >= 1 && args[0] instanceof Integer pos && !method.getName().equals("setRowKind")) {
                String field = type.getFieldNames().get(pos);
                if (!whole.contains(pos) && !nested.containsKey(pos)) {
                    throw new IllegalStateException("unread field " + field + " was touched by " + method.getName());
                }
                Object value = method.invoke(row, args);
                if (value instanceof RowData inner && nested.containsKey(pos)) {
                    return tripwire(inner, (RowType) type.getTypeAt(pos), nested.get(pos));
                }
                return value;
            }
            return method.invoke(row, args);
        };
        return (RowData) Proxy.newProxyInstance(RowData.class.getClassLoader(), new Class<?>[] {RowData.class}, handler);
    }
}
