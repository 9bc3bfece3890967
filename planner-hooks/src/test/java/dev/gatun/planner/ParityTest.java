package dev.gatun.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.testing.Queries;
import dev.gatun.planner.testing.SharedCluster;
import dev.gatun.planner.testing.TestTables;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Small queries, each run stock and native (forced) on the same rows: equal changelogs. */
@ExtendWith(LeakCheckExtension.class)
class ParityTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER = SharedCluster.extension();

    private static Queries q;

    @BeforeAll
    static void tables() {
        q = new Queries();
        TestTables.createT(q, "t", 300);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // comparisons and logic
        "SELECT id, a > 5, a = b, b <= 1000, a <> 3 FROM t",
        "SELECT id FROM t WHERE a BETWEEN -10 AND 10 OR s IS NULL",
        "SELECT id FROM t WHERE a IN (1, 2, 3, -100) OR b IN (6000018)",
        "SELECT id, d > 1.5E0, d = 0.0E0, d < a, d <> d FROM t",
        "SELECT id, (a > 0) IS TRUE, (a > 0) IS NOT FALSE, NOT (a > 0) FROM t",
        "SELECT id, a IS DISTINCT FROM 3, a IS NOT DISTINCT FROM b FROM t",
        "SELECT id, amount > 100.5, amount = a, ts > TIMESTAMP '2023-11-20 00:00:00' FROM t",
        // arithmetic
        "SELECT id, a + b, a - 1, a * a, b * 3, a / 7, b / 13, a % 5, MOD(b, 1000) FROM t WHERE a <> 0",
        "SELECT id, d + a, d * d, d / 3, d - 1.25, -d, -a, ABS(a), ABS(d) FROM t",
        "SELECT id, amount + 1, amount * amount, amount / 3, amount - a, amount * 0.908, -amount, ABS(amount) FROM t",
        "SELECT id, b * 0.908, MOD(id, 123) = 0, b % 123, b % a, a % CAST(7 AS TINYINT) FROM t WHERE a <> 0",
        "SELECT id, CAST(a AS BIGINT) + 1, CAST(a AS DOUBLE) / 2, CAST(b AS INT), CAST(d AS INT), CAST(amount AS INT) FROM t",
        // CASE, COALESCE, casts
        "SELECT id, CASE WHEN a > 50 THEN 'big' WHEN a > 0 THEN 'small' ELSE 'neg' END FROM t",
        "SELECT id, CASE WHEN a IS NULL THEN 0 ELSE a END, COALESCE(b, a, 0), IF(a > 0, b, CAST(NULL AS BIGINT)) FROM t",
        "SELECT id, CASE WHEN a <> 0 THEN 100 / a ELSE -1 END FROM t",
        "SELECT id FROM t WHERE a <> 0 AND 100 / a > 2",
        "SELECT id, CAST(a AS STRING), CAST(d AS STRING), CAST(amount AS STRING) FROM t",
        "SELECT id, TRY_CAST(s AS INT), CAST(a AS DECIMAL(12, 3)), CAST(amount AS DOUBLE) FROM t",
        // strings
        "SELECT id, UPPER(s), LOWER(s), CHAR_LENGTH(s), s || '!' FROM t",
        "SELECT id, SUBSTRING(s, 2), SUBSTRING(s, 2, 3), SUBSTRING(s, -2, 5) FROM t",
        "SELECT id, TRIM(s), TRIM(LEADING 'a' FROM s), TRIM(TRAILING ' 0123456789' FROM s) FROM t",
        "SELECT id, POSITION('a' IN s), REPLACE(s, 'a', 'AA'), CONCAT(s, '-', CAST(id AS STRING)) FROM t",
        "SELECT id FROM t WHERE s LIKE '%p%' OR s LIKE 'Z_B%' OR s NOT LIKE '%e%'",
        "SELECT id, s = 'fig', s < 'b', s >= 'Pear' FROM t",
        // temporal
        "SELECT id, EXTRACT(YEAR FROM ts), EXTRACT(HOUR FROM ts), MONTH(ts), DAYOFWEEK(ts), SECOND(ts) FROM t",
        "SELECT id, FLOOR(ts TO HOUR), CEIL(ts TO DAY), FLOOR(ts TO MONTH) FROM t",
        "SELECT id, CAST(ts AS DATE), EXTRACT(DAY FROM CAST(ts AS DATE)) FROM t",
        // nested rows and pass-through of whole rows
        "SELECT id, t.r.x * 2, t.r.z.v, t.r.z.w FROM t WHERE t.r.z.w > 30",
        "SELECT id, r, a + 1 FROM t WHERE id > 100",
    })
    void nativeEqualsStock(String sql) throws Exception {
        String plan = q.explain(sql);
        String decisions = plan.substring(plan.indexOf("== Gatun =="));
        assertTrue(decisions.contains("native: ") && !decisions.contains("stock ("), decisions);
        assertEquals(q.run(sql, false), q.run(sql, true), sql);
    }
}
