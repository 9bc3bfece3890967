package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.rewrite.CalcAdmission;
import dev.gatun.planner.rewrite.CalcDecision;
import dev.gatun.planner.testing.Queries;
import dev.gatun.planner.testing.SharedMiniCluster;
import dev.gatun.planner.testing.TestTables;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Pruning through the nodes Flink puts between a Calc and its source, and watermark fusion. */
@ExtendWith(LeakCheckExtension.class)
@ExtendWith(SharedMiniCluster.class)
class PlannerModesTest {
    private static Queries q;

    @BeforeAll
    static void tables() {
        q = new Queries();
        TestTables.createT(q, "t", 200);
        // a rowtime must not be NULL, and t.ts has NULLs
        q.sql("CREATE TEMPORARY TABLE tw (wts AS COALESCE(ts, TIMESTAMP '2000-01-01 00:00:00'),"
                + " WATERMARK FOR wts AS wts - INTERVAL '1' SECOND) LIKE t");
        // a watermark expression with a native translation (interval literals have none)
        q.sql("CREATE TEMPORARY TABLE tw0 (wts AS COALESCE(ts, TIMESTAMP '2000-01-01 00:00:00'),"
                + " WATERMARK FOR wts AS wts) LIKE t");
    }

    /** The rows a changelog leaves after applying its inserts, updates and deletes, sorted. */
    static List<String> materialize(List<String> changelog) {
        List<String> rows = new ArrayList<>();
        for (String change : changelog) {
            String row = change.substring(2);
            if (change.startsWith("+")) {
                rows.add(row);
            }
        }
        for (String change : changelog) {
            if (change.startsWith("-")) {
                assertTrue(rows.remove(change.substring(2)), "retracts a row it never added: " + change);
            }
        }
        rows.sort(null);
        return rows;
    }

    @Test
    void pruningReachesThroughWatermarkAndMiniBatchAssigners() throws Exception {
        q.set("table.exec.mini-batch.enabled", "true");
        q.set("table.exec.mini-batch.allow-latency", "100 ms");
        q.set("table.exec.mini-batch.size", "50");
        try {
            String sql = "SELECT k, COUNT(*), SUM(w) FROM (SELECT MOD(id, 5) AS k, tw.r.z.w + 1 AS w FROM tw"
                    + " WHERE tw.r.x > 3 AND UPPER(tw.r.y) <> 'Y2') GROUP BY k";
            String plan = q.explain(sql);
            assertTrue(plan.contains("WatermarkAssigner") && plan.contains("MiniBatchAssigner"), plan);
            // the island absorbs both assigners and reads ts for the rowtime's NULL check
            assertTrue(plan.contains("reads=[id, ts, r.x, r.y, r.z.w]"), plan);
            assertTrue(plan.contains("FusedMiniBatchAssigner("), plan);
            assertTrue(q.decisions(sql).stream().allMatch(CalcDecision::isNative), plan);
            // mini-batches close on processing time, so the intermediate updates differ run to run:
            // compare what the changelogs materialize to
            List<String> rows = materialize(q.run(sql, true));
            assertFalse(rows.isEmpty());
            assertEquals(materialize(q.run(sql, false)), rows);
        } finally {
            q.set("table.exec.mini-batch.enabled", "false");
        }
    }

    @Test
    void aCalcOverAWatermarkAssignerFusesWithIt() throws Exception {
        String sql = "SELECT id, a + 1 FROM tw0 WHERE a > 0";
        List<CalcDecision> decisions = q.decisions(sql);
        assertTrue(decisions.stream().anyMatch(d -> d.isNative() && d.spec().assignsWatermarks()),
                decisions.toString());
        List<String> rows = q.run(sql, true);
        assertFalse(rows.isEmpty());
        assertEquals(q.run(sql, false), rows);
    }
}
