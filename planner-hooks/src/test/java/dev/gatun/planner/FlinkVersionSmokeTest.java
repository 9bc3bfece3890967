package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.testing.Queries;
import dev.gatun.planner.testing.SharedMiniCluster;
import dev.gatun.planner.testing.TestTables;
import java.util.List;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The subset CI runs against every other Flink version it builds with ({@code -Pflink-2.3}):
 * enabling, a few parity queries across types, a changelog input, a fallback with its reason
 * and EXPLAIN. Selected with {@code -Dgroups=flink-smoke}; it also runs in the main suite.
 */
@Tag("flink-smoke")
@ExtendWith(LeakCheckExtension.class)
@ExtendWith(SharedMiniCluster.class)
class FlinkVersionSmokeTest {
    private static Queries q;

    @BeforeAll
    static void tables() {
        // Queries calls Gatun.enable and fails when it reports the native library unusable.
        q = new Queries();
        TestTables.createT(q, "t", 200);
    }

    @AfterEach
    void defaults() {
        q.set("gatun.native.force", "true");
        q.set("gatun.functions.disabled", "");
    }

    @Test
    void runsOnTheFlinkVersionOfTheBuild() {
        String expected = System.getProperty("gatun.expected.flink.version");
        assertTrue(expected != null && !expected.isBlank(), "surefire passes gatun.expected.flink.version");
        assertEquals(expected, EnvironmentInformation.getVersion());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT id, a + b, b * 0.908, a % 5, -d, amount * 3 FROM t WHERE a <> 0",
        "SELECT id, CASE WHEN a > 50 THEN 'big' WHEN a > 0 THEN 'small' ELSE 'neg' END, COALESCE(b, a, 0) FROM t",
        "SELECT id, UPPER(s), CHAR_LENGTH(s), SUBSTRING(s, 2, 3) FROM t WHERE s LIKE '%a%' OR s IS NULL",
        "SELECT id, EXTRACT(YEAR FROM ts), FLOOR(ts TO HOUR), CAST(ts AS DATE) FROM t",
        "SELECT id, t.r.x * 2, t.r.z.w FROM t WHERE t.r.z.w > 30",
    })
    void nativeEqualsStock(String sql) throws Exception {
        String decisions = gatunSection(sql);
        assertTrue(decisions.contains("native: ") && !decisions.contains("stock ("), decisions);
        List<String> stock = q.run(sql, false);
        assertFalse(stock.isEmpty(), sql);
        assertEquals(stock, q.run(sql, true), sql);
    }

    @Test
    void aChangelogInputKeepsItsRowKinds() throws Exception {
        String sql = "SELECT k, c * 2 FROM (SELECT MOD(id, 7) AS k, COUNT(*) AS c FROM t GROUP BY MOD(id, 7))"
                + " WHERE c > 1";
        assertTrue(q.explain(sql).contains("NativeCalc("), q.explain(sql));
        List<String> stock = q.run(sql, false);
        assertTrue(stock.stream().anyMatch(r -> r.startsWith("-U")), stock.toString());
        assertEquals(stock, q.run(sql, true));
    }

    @Test
    void aTwoPhaseLocalAggregateRunsNatively() throws Exception {
        String sql = "SELECT MOD(id, 7), COUNT(*), SUM(b), MAX(s), AVG(d) FILTER (WHERE a > 0) FROM t WHERE id > 3"
                + " GROUP BY MOD(id, 7)";
        q.set("table.exec.mini-batch.enabled", "true");
        q.set("table.exec.mini-batch.allow-latency", "1 h");
        q.set("table.exec.mini-batch.size", "17");
        q.set("table.optimizer.agg-phase-strategy", "TWO_PHASE");
        try {
            String decisions = gatunSection(sql);
            assertTrue(decisions.contains("native: LocalGroupAggregate(") && !decisions.contains("stock ("),
                    decisions);
            List<String> stock = PlannerModesTest.materialize(q.run(sql, false));
            assertFalse(stock.isEmpty(), sql);
            assertEquals(stock, PlannerModesTest.materialize(q.run(sql, true)), sql);
        } finally {
            q.set("table.exec.mini-batch.enabled", "false");
            q.set("table.optimizer.agg-phase-strategy", "AUTO");
        }
    }

    @Test
    void anUnsupportedFunctionFallsBackWithItsReason() throws Exception {
        String sql = "SELECT id, MD5(s) FROM t";
        String decisions = gatunSection(sql);
        assertTrue(decisions.contains("stock (MD5(") && decisions.contains("has no native translation"), decisions);
        assertEquals(q.run(sql, false), q.run(sql, true));
    }

    @Test
    void aDisabledFunctionFallsBack() {
        q.set("gatun.functions.disabled", "UPPER");
        String decisions = gatunSection("SELECT id, UPPER(s) FROM t");
        assertTrue(decisions.contains("stock (UPPER is disabled by gatun.functions.disabled)"), decisions);
    }

    @Test
    void explainMarksTheNativeIslandInFlinksPlan() {
        String plan = q.explain("SELECT id, a * 2 FROM t WHERE a > 0");
        String flinkPart = plan.substring(0, plan.indexOf("== Gatun =="));
        assertTrue(flinkPart.contains("NativeCalc(") && !flinkPart.contains(" Calc("), plan);
    }

    private static String gatunSection(String sql) {
        String plan = q.explain(sql);
        return plan.substring(plan.indexOf("== Gatun =="));
    }
}
