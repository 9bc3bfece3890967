package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.testing.Queries;
import dev.gatun.planner.testing.SharedCluster;
import dev.gatun.planner.testing.TestTables;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Calcs that stay on Flink say why in Gatun.explain, and still give stock results. */
@ExtendWith(LeakCheckExtension.class)
class FallbackTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER = SharedCluster.extension();

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
        String plan = q.explain(sql);
        return plan.substring(plan.indexOf("== Gatun =="));
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
    void theCostRuleKeepsMeasuredLosersStockAndSaysWhy() throws Exception {
        q.set("gatun.native.force", "false");
        String filter = gatunSection("SELECT id, a FROM t WHERE a % 123 = 0");
        assertTrue(filter.contains("stock (cost rule: a Calc of cheap filter measured 1.00x stock, below"
                + " gatun.cost.min-speedup=1.10"), filter);
        String strings = gatunSection("SELECT id, UPPER(s), a + 1 FROM t");
        assertTrue(strings.contains("stock (cost rule: a Calc of string functions measured 0.48x"), strings);
        String arithmetic = gatunSection("SELECT id, b * 0.908 FROM t WHERE a > 0");
        assertTrue(arithmetic.contains("native: ") && !arithmetic.contains("stock ("), arithmetic);
        String unmeasured = gatunSection("SELECT id, EXTRACT(YEAR FROM ts) FROM t");
        assertTrue(unmeasured.contains("native: ") && !unmeasured.contains("stock ("), unmeasured);
        q.set("gatun.cost.min-speedup", "0.9");
        try {
            String lowered = gatunSection("SELECT id, a FROM t WHERE a % 123 = 0");
            assertTrue(lowered.contains("native: ") && !lowered.contains("stock ("), lowered);
            String stillStrings = gatunSection("SELECT id, UPPER(s) FROM t");
            assertTrue(stillStrings.contains("stock (cost rule: a Calc of string functions"), stillStrings);
        } finally {
            q.set("gatun.cost.min-speedup", "1.10");
        }
        String sql = "SELECT id, UPPER(s), a + 1 FROM t WHERE a % 3 = 0";
        assertEquals(q.run(sql, false), q.run(sql, true));
    }

    @Test
    void anUnsupportedFunctionIsNamed() throws Exception {
        String sql = "SELECT id, MD5(s) FROM t";
        String decision = gatunSection(sql);
        assertTrue(decision.contains("stock (MD5(") && decision.contains("has no native translation"), decision);
        assertEquals(q.run(sql, false).size(), 100);
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
