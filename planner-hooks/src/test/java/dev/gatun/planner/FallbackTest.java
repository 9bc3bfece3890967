package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.rewrite.CostRule;
import dev.gatun.planner.testing.Queries;
import dev.gatun.planner.testing.SharedMiniCluster;
import dev.gatun.planner.testing.TestTables;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Calcs that stay on Flink say why in Gatun.explain, and still give stock results. */
@ExtendWith(LeakCheckExtension.class)
@ExtendWith(SharedMiniCluster.class)
class FallbackTest {
    private static Queries q;

    @BeforeAll
    static void tables() {
        q = new Queries();
        TestTables.createT(q, "t", 100);
    }

    @AfterEach
    void defaults() {
        q.set("gatun.native.force", "true");
        q.set("gatun.functions.disabled", "");
    }

    private static String gatunSection(String sql) {
        return gatunSection(q, sql);
    }

    private static String gatunSection(Queries queries, String sql) {
        String plan = queries.explain(sql);
        return plan.substring(plan.indexOf("== Gatun =="));
    }

    private static final String TW = "CREATE TEMPORARY TABLE IF NOT EXISTS tw (wts AS COALESCE(ts,"
            + " TIMESTAMP '2000-01-01 00:00:00'), pt AS PROCTIME(), WATERMARK FOR wts AS wts - INTERVAL '1' SECOND)"
            + " LIKE t";

    /**
     * The Gatun section of {@code sql}'s EXPLAIN with {@code table.exec.emit.allow-lateness} set, planned in an
     * environment of its own: Flink copies the table config into the environment's root configuration, from
     * which a key cannot be removed again.
     */
    private static String withAllowedLateness(String aggPhaseStrategy, String sql) {
        Queries own = new Queries();
        TestTables.createT(own, "t", 100);
        own.sql(TW);
        own.set("table.optimizer.agg-phase-strategy", aggPhaseStrategy);
        own.set("table.exec.emit.allow-lateness", "1 min");
        return gatunSection(own, sql);
    }

    /**
     * A window aggregate whose global phase stays on Flink says why: a processing-time window, an emit
     * strategy, a window computed by a separate window table function,
     * {@code gatun.aggregate.window.enabled=false} (no decision at all).
     */
    @Test
    void windowAggregatesThatStayStockSayWhy() throws Exception {
        q.sql(TW);
        String event = "SELECT window_start, window_end, s, COUNT(*), SUM(a) FROM TABLE(TUMBLE(TABLE tw, DESCRIPTOR(wts),"
                + " INTERVAL '1' DAY)) GROUP BY window_start, window_end, s";
        String proctime = "SELECT window_start, window_end, s, COUNT(*) FROM TABLE(TUMBLE(TABLE tw, DESCRIPTOR(pt),"
                + " INTERVAL '1' DAY)) GROUP BY window_start, window_end, s";
        String separate = "SELECT window_start, window_end, s, COUNT(*) FROM (SELECT window_start, window_end, s"
                + " FROM TABLE(TUMBLE(TABLE tw, DESCRIPTOR(wts), INTERVAL '1' DAY)) WHERE a > 0 OR s IS NULL"
                + " UNION ALL SELECT window_start, window_end, s FROM TABLE(TUMBLE(TABLE tw, DESCRIPTOR(wts),"
                + " INTERVAL '1' DAY)) WHERE a < 0) GROUP BY window_start, window_end, s";
        try {
            q.set("table.optimizer.agg-phase-strategy", "TWO_PHASE");
            assertTrue(gatunSection(event).contains("native: GlobalWindowAggregate("), gatunSection(event));
            String proc = gatunSection(proctime);
            assertTrue(proc.contains("a processing-time window is not admitted natively"), proc);
            String apart = gatunSection(separate);
            assertTrue(apart.contains("stock (the window is WindowAttachedWindowingStrategy"), apart);
            String emit = withAllowedLateness("TWO_PHASE", event);
            assertTrue(emit.contains("stock (an emit strategy (table.exec.emit.allow-lateness) is not admitted"
                    + " natively): GlobalWindowAggregate("), emit);
            q.set("gatun.aggregate.window.enabled", "false");
            assertTrue(!gatunSection(event).contains("GlobalWindowAggregate("), gatunSection(event));
            assertEquals(q.run(event, false), q.run(event, true));
        } finally {
            q.set("gatun.aggregate.window.enabled", "true");
            q.set("table.optimizer.agg-phase-strategy", "AUTO");
        }
    }

    /**
     * A one-phase window aggregate ({@code table.optimizer.agg-phase-strategy=ONE_PHASE}) goes native, and
     * where it stays on Flink EXPLAIN says why: a processing-time window (one phase in any strategy), an
     * emit strategy, DISTINCT, a function without a native kernel, a window whose slice ends are not the
     * trigger points of Flink's window buffer (an offset), a window computed by a separate window table
     * function; {@code gatun.aggregate.window.enabled=false} decides nothing. Mini-batch off leaves the
     * two-phase rewrite as it is (Flink's rule does not need it).
     */
    @Test
    void oneWindowAggregatePhaseGoesNativeOrSaysWhyNot() throws Exception {
        q.sql(TW);
        String tumble = "TABLE(TUMBLE(TABLE tw, DESCRIPTOR(wts), INTERVAL '1' DAY))";
        String event = "SELECT window_start, window_end, s, COUNT(*), SUM(a) FILTER (WHERE a > 0) FROM " + tumble
                + " GROUP BY window_start, window_end, s";
        Map<String, String> stock = new LinkedHashMap<>();
        stock.put("SELECT window_start, window_end, s, COUNT(*) FROM TABLE(TUMBLE(TABLE tw, DESCRIPTOR(pt),"
                + " INTERVAL '1' DAY)) GROUP BY window_start, window_end, s",
                "a processing-time window is not admitted natively");
        stock.put("SELECT window_start, window_end, COUNT(DISTINCT a) FROM " + tumble
                + " GROUP BY window_start, window_end", "DISTINCT aggregates are not admitted natively");
        stock.put("SELECT window_start, window_end, LISTAGG(s) FROM " + tumble + " GROUP BY window_start, window_end",
                "aggregate function LISTAGG");
        stock.put("SELECT window_start, window_end, COUNT(*) FROM TABLE(TUMBLE(TABLE tw, DESCRIPTOR(wts),"
                + " INTERVAL '1' DAY, INTERVAL '5' HOUR)) GROUP BY window_start, window_end",
                "a window whose slice ends are not the trigger points of Flink's window buffer");
        stock.put("SELECT window_start, window_end, s, COUNT(*) FROM (SELECT window_start, window_end, s"
                + " FROM " + tumble + " WHERE a > 0 OR s IS NULL UNION ALL SELECT window_start, window_end, s FROM "
                + tumble + " WHERE a < 0) GROUP BY window_start, window_end, s",
                "the window is WindowAttachedWindowingStrategy");
        try {
            q.set("table.optimizer.agg-phase-strategy", "ONE_PHASE");
            String onePhase = gatunSection(event);
            assertTrue(onePhase.contains("native: WindowAggregate(") && !onePhase.contains("LocalWindowAggregate("),
                    onePhase);
            assertEquals(q.run(event, false), q.run(event, true));
            for (var e : stock.entrySet()) {
                String section = gatunSection(e.getKey());
                String decision = section.lines().filter(l -> l.contains("): WindowAggregate(")).findFirst()
                        .orElse("");
                assertTrue(decision.startsWith("stock (") && decision.contains(e.getValue()),
                        e.getKey() + "\n" + section);
            }
            String emit = withAllowedLateness("ONE_PHASE", event);
            assertTrue(emit.contains("stock (an emit strategy (table.exec.emit.allow-lateness) is not admitted"
                    + " natively): WindowAggregate("), emit);
            q.set("gatun.aggregate.window.enabled", "false");
            assertTrue(!gatunSection(event).contains("WindowAggregate("), gatunSection(event));
            q.set("gatun.aggregate.window.enabled", "true");
            q.set("table.optimizer.agg-phase-strategy", "AUTO");
            q.set("table.exec.mini-batch.enabled", "false");
            String twoPhase = gatunSection(event);
            assertTrue(twoPhase.contains("native: GlobalWindowAggregate("), twoPhase);
        } finally {
            q.set("gatun.aggregate.window.enabled", "true");
            q.set("table.optimizer.agg-phase-strategy", "AUTO");
        }
    }

    @Test
    void aPureReorderingStaysStockUnlessForced() throws Exception {
        String sql = "SELECT s, id FROM t WHERE id IS NOT NULL OR id IS NULL";
        String sql2 = "SELECT s, id, a FROM t";
        q.set("gatun.native.force", "false");
        String decision = gatunSection(sql2);
        assertTrue(decision.contains("stock (cost rule: the Calc only selects, renames or reorders columns"), decision);
        q.set("gatun.native.force", "true");
        assertTrue(gatunSection(sql2).contains("native: "), gatunSection(sql2));
        assertEquals(q.run(sql, false), q.run(sql, true));
    }

    @Test
    void theCostRuleFollowsTheMeasuredSpeedupOfEachShapeAndSaysWhy() throws Exception {
        q.set("gatun.native.force", "false");
        Map<String, CostRule.Shape> shapes = new LinkedHashMap<>();
        shapes.put("SELECT id, a FROM t WHERE a % 123 = 0", CostRule.Shape.CHEAP_FILTER);
        shapes.put("SELECT id, UPPER(s), a + 1 FROM t", CostRule.Shape.STRINGS);
        shapes.put("SELECT id, b * 0.908 FROM t WHERE a > 0", CostRule.Shape.CHEAP_PROJECTION);
        shapes.put("SELECT id, EXTRACT(YEAR FROM ts) FROM t", CostRule.Shape.OTHER);
        try {
            for (var e : shapes.entrySet()) {
                String sql = e.getKey();
                OptionalDouble measured = CostRule.measured(e.getValue(), false, false); // alone; Flink's default reuse, as in this test
                if (measured.isEmpty()) {
                    assertNative(gatunSection(sql));
                    continue;
                }
                double m = measured.getAsDouble();
                double above = m + 0.01;
                q.set("gatun.cost.min-speedup", String.format(Locale.ROOT, "%.2f", above));
                String rejected = gatunSection(sql);
                assertTrue(rejected.contains(String.format(Locale.ROOT,
                        "stock (cost rule: a Calc of %s measured %.2fx stock with pipeline.object-reuse=false, below"
                                + " gatun.cost.min-speedup=%.2f",
                        e.getValue().description(), m, above)), rejected);
                q.set("gatun.cost.min-speedup", String.format(Locale.ROOT, "%.2f", Math.max(0, m - 0.01)));
                assertNative(gatunSection(sql));
                q.set("gatun.cost.min-speedup", "1.10");
                String byDefault = gatunSection(sql);
                if (m >= 1.10) {
                    assertNative(byDefault);
                } else {
                    assertTrue(byDefault.contains("stock (cost rule: a Calc of " + e.getValue().description()), byDefault);
                }
            }
        } finally {
            q.set("gatun.cost.min-speedup", "1.10");
        }
        String sql = "SELECT id, UPPER(s), a + 1 FROM t WHERE a % 3 = 0";
        assertEquals(q.run(sql, false), q.run(sql, true));
    }

    @Test
    void theCostRuleUsesTheSpeedupMeasuredUnderTheJobsObjectReuseSetting() throws Exception {
        q.set("gatun.native.force", "false");
        String sql = "SELECT id, b * 0.908 FROM t WHERE a > 0";
        double off = CostRule.measured(CostRule.Shape.CHEAP_PROJECTION, false, false).orElseThrow();
        double on = CostRule.measured(CostRule.Shape.CHEAP_PROJECTION, false, true).orElseThrow();
        // a threshold between the two measurements admits the shape under one setting only
        double between = (off + on) / 2;
        try {
            q.set("gatun.cost.min-speedup", String.format(Locale.ROOT, "%.3f", between));
            for (boolean reuse : new boolean[] {false, true}) {
                q.set("pipeline.object-reuse", Boolean.toString(reuse));
                String decision = gatunSection(sql);
                if ((reuse ? on : off) >= between) {
                    assertNative(decision);
                } else {
                    assertTrue(decision.contains("with pipeline.object-reuse=" + reuse + ", below"), decision);
                }
            }
        } finally {
            q.set("pipeline.object-reuse", "false");
            q.set("gatun.cost.min-speedup", "1.10");
        }
    }

    private static void assertNative(String decision) {
        assertTrue(decision.contains("native: ") && !decision.contains("stock ("), decision);
    }

    /**
     * Flink's UPPER/LOWER use the default locale; the native ones are the root locale's, so a
     * Turkish default locale (where UPPER('i') is 'İ') keeps them stock, naming the locale.
     */
    @Test
    void caseMappingInATurkishDefaultLocaleStaysStock() throws Exception {
        Locale before = Locale.getDefault();
        Locale.setDefault(Locale.forLanguageTag("tr-TR"));
        try {
            for (String f : new String[] {"UPPER", "LOWER"}) {
                String decision = gatunSection("SELECT id, " + f + "(s) FROM t");
                assertTrue(decision.contains("stock (" + f + "(") && decision.contains("default locale (tr_TR)"), decision);
            }
            String sql = "SELECT id, UPPER(s), LOWER(s), a + 1 FROM t";
            List<String> stock = q.run(sql, false);
            assertEquals(stock, q.run(sql, true));
        } finally {
            Locale.setDefault(before);
        }
        assertNative(gatunSection("SELECT id, UPPER(s), LOWER(s) FROM t"));
    }

    @Test
    void anUnsupportedFunctionIsNamed() throws Exception {
        String sql = "SELECT id, MD5(s) FROM t";
        String decision = gatunSection(sql);
        assertTrue(decision.contains("stock (MD5(") && decision.contains("has no native translation"), decision);
        assertEquals(q.run(sql, false).size(), 100);
    }

    /**
     * A REGEXP_EXTRACT pattern outside the subset Gatun translates keeps the Calc on Flink, naming
     * the construct (Rust's refusal at the planning-time compile); a computed pattern too.
     */
    @Test
    void anUnsupportedRegexIsNamed() throws Exception {
        String sql = "SELECT id, REGEXP_EXTRACT(s, '(?<=a)\\w+\\b', 0) FROM t";
        String decision = gatunSection(sql);
        assertTrue(decision.contains("stock (") && decision.contains(
                "REGEXP_EXTRACT pattern uses lookbehind, which Gatun does not run natively"), decision);
        assertEquals(q.run(sql, false), q.run(sql, true));
        decision = gatunSection("SELECT id, DATE_FORMAT(ts, 'MMM d') FROM t");
        assertTrue(decision.contains("stock (") && decision.contains("the pattern letters 'MMM' are not admitted natively"),
                decision);
        decision = gatunSection("SELECT id, DATE_FORMAT(ts, s) FROM t");
        assertTrue(decision.contains("the pattern must be a STRING literal"), decision);
        decision = gatunSection("SELECT id, REGEXP_EXTRACT(s, s) FROM t");
        assertTrue(decision.contains("stock (REGEXP_EXTRACT(") && decision.contains("has a computed pattern"), decision);
    }

    /** Flink's generated code has no splitIndex overload for a BIGINT index: stock fails, and so Gatun stays stock. */
    @Test
    void splitIndexWithABigintIndexStaysStock() {
        String sql = "SELECT id, SPLIT_INDEX(s, '/', id) FROM t";
        String decision = gatunSection(sql);
        assertTrue(decision.contains("stock (SPLIT_INDEX(") && decision.contains("an INT index"), decision);
        org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> q.run(sql, false));
    }

    @Test
    void anUnsupportedTypeIsNamed() {
        String decision = gatunSection("SELECT id, CAST(ts AS TIMESTAMP(9)) FROM t");
        assertTrue(decision.contains("stock (") && decision.contains("TIMESTAMP(9)")
                && decision.contains("gatun.types.nanosecond-timestamps"), decision);
    }

    @Test
    void aDisabledFunctionStaysStock() {
        q.set("gatun.functions.disabled", "UPPER;SUBSTRING");
        String decision = gatunSection("SELECT id, UPPER(s) FROM t");
        assertTrue(decision.contains("stock (UPPER is disabled by gatun.functions.disabled)"), decision);
    }

    @Test
    void nativeDisabledPlansStock() {
        q.env().getConfig().set(GatunOptions.NATIVE_ENABLED, false);
        try {
            String plan = q.explain("SELECT id, a + 1 FROM t");
            assertTrue(!plan.contains("NativeCalc(") && plan.contains("gatun.native.enabled=false"), plan);
        } finally {
            q.env().getConfig().set(GatunOptions.NATIVE_ENABLED, true);
        }
    }
}
