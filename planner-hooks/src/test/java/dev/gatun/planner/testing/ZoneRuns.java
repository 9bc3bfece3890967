package dev.gatun.planner.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.flink.util.ExceptionUtils;

/**
 * Window queries run for parity: per session zone, every query once per side (stock, Gatun) as one
 * job per side (a failed job is rerun query by query), and how many of the native operators a zone's
 * Gatun job planned reported rows.
 */
public final class ZoneRuns {
    private final Map<String, Map<String, Object>> stock = new HashMap<>();
    private final Map<String, Map<String, Object>> gatun = new HashMap<>();
    private final Map<String, Long> ran = new HashMap<>();

    private ZoneRuns() {}

    /**
     * @param sqlsByZone the queries that run, per zone
     * @param counted whether a metric identifier is one of the native operators to count
     */
    public static ZoneRuns run(Queries q, Map<String, List<String>> sqlsByZone, Predicate<String> counted) {
        ZoneRuns runs = new ZoneRuns();
        sqlsByZone.forEach((zone, sqls) -> {
            q.set("table.local-time-zone", zone);
            runs.stock.put(zone, runSide(q, sqls, false));
            runs.gatun.put(zone, runSide(q, sqls, true));
            if (!(runs.gatun.get(zone).get(sqls.get(0)) instanceof Throwable)) {
                // runSide's Gatun job is the last one
                runs.ran.put(zone, GatunCounters.of(q.lastJob()).keySet().stream()
                        .filter(k -> counted.test(k) && k.endsWith(".gatun.rowsIn")).count());
            }
        });
        return runs;
    }

    private static Map<String, Object> runSide(Queries q, List<String> sqls, boolean nativeEnabled) {
        Map<String, Object> out = new LinkedHashMap<>();
        try {
            out.putAll(q.runAll(sqls, nativeEnabled, null));
        } catch (Exception groupFailure) {
            for (String sql : sqls) {
                try {
                    out.put(sql, q.runAll(List.of(sql), nativeEnabled, null).get(sql));
                } catch (Exception e) {
                    out.put(sql, e);
                }
            }
        }
        return out;
    }

    /** The counted native operators of {@code zone}'s Gatun job that reported rows; fails when the job failed. */
    public long ran(String zone) {
        Long n = ran.get(zone);
        assertTrue(n != null, "the native job of zone " + zone + " failed as a whole");
        return n;
    }

    /** Both sides ran {@code sql} with equal changelogs of inserts only, empty exactly when {@code mayBeEmpty}. */
    public void assertEqualInserts(String zone, String sql, boolean mayBeEmpty) {
        Object s = stock.get(zone).get(sql);
        Object g = gatun.get(zone).get(sql);
        if (s instanceof Throwable t) {
            fail("stock Flink failed on " + sql + ": " + ExceptionUtils.stringifyException(t));
        }
        if (g instanceof Throwable t) {
            fail("Gatun failed on " + sql + ": " + ExceptionUtils.stringifyException(t));
        }
        assertEquals(s, g, "the changelog of " + sql);
        @SuppressWarnings("unchecked")
        List<String> rows = (List<String>) s;
        assertTrue(rows.stream().allMatch(r -> r.startsWith("+I")), "a window aggregate only inserts: " + rows);
        assertEquals(mayBeEmpty, rows.isEmpty(), "rows of " + sql + ": " + rows);
    }
}
