package dev.gatun.planner.testing;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gatun.planner.rewrite.CalcDecision;
import dev.gatun.planner.testing.ParityQueries.Group;
import dev.gatun.planner.testing.ParityQueries.Query;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;

/**
 * Runs {@link ParityQueries} groups on stock Flink and with Gatun in one environment (streaming or
 * batch) and compares the results exactly, row kinds included. Each query also states what the
 * planner must do with its Calcs: all native, or a named fallback whose reason EXPLAIN shows.
 * The queries of a group run as one job per side (a statement set with one sink per query), so a
 * group costs two jobs, not two per query; a failed job is rerun query by query to name the culprit.
 */
public final class ParitySuite {
    /** What a group setting returns to when it was not set before. */
    private static final Map<String, String> NEUTRAL = Map.of(
            "table.local-time-zone", "default", "gatun.functions.disabled", "");

    private final Queries q;
    private final boolean checkIslandsRan;

    /**
     * @param checkIslandsRan also assert, per group, that the native job ran at least one island
     *     with input rows per query expected native ({@code gatun.rowsIn} of the shared cluster)
     */
    public ParitySuite(Queries q, boolean checkIslandsRan) {
        this.q = q;
        this.checkIslandsRan = checkIslandsRan;
    }

    public Stream<DynamicNode> tests(List<Group> groups) {
        return groups.stream().map(this::container);
    }

    private DynamicContainer container(Group group) {
        GroupRun run = new GroupRun(group);
        List<DynamicNode> tests = new ArrayList<>();
        for (Query query : group.queries()) {
            tests.add(DynamicTest.dynamicTest(query.sql(), () -> check(group, query, run)));
        }
        if (checkIslandsRan) {
            tests.add(DynamicTest.dynamicTest("the native job ran its islands", () -> checkIslandsRan(group, run)));
        }
        return DynamicContainer.dynamicContainer(group.name(), tests);
    }

    private void check(Group group, Query query, GroupRun run) throws Exception {
        List<CalcDecision> decisions = withSettings(group, () -> q.decisions(query.sql()));
        assertFalse(decisions.isEmpty(), "no Calc in the plan of " + query.sql());
        if (query.fallback() == null) {
            for (CalcDecision d : decisions) {
                assertTrue(d.isNative(), "expected native, got " + d);
            }
        } else {
            assertTrue(decisions.stream().anyMatch(d -> !d.isNative() && d.reason().contains(query.fallback())),
                    "expected a Calc to stay stock with a reason containing '" + query.fallback() + "', got "
                            + decisions);
        }
        String explained = withSettings(group, () -> q.explain(query.sql()));
        for (CalcDecision d : decisions) {
            assertTrue(d.isNative() || explained.contains("stock (" + d.reason() + ")"), explained);
        }
        run.ensure();
        Object stock = run.stock.get(query.sql());
        Object nativeRows = run.nativeRows.get(query.sql());
        if (stock instanceof Throwable t) {
            fail("stock Flink failed on " + query.sql() + ": " + ExceptionUtils.stringifyException(t));
        }
        if (nativeRows instanceof Throwable t) {
            fail("Gatun failed on " + query.sql() + ": " + ExceptionUtils.stringifyException(t));
        }
        if (!stock.equals(nativeRows)) {
            List<?> onlyStock = new ArrayList<>((List<?>) stock);
            onlyStock.removeAll((List<?>) nativeRows);
            List<?> onlyNative = new ArrayList<>((List<?>) nativeRows);
            onlyNative.removeAll((List<?>) stock);
            fail(query.sql() + "\n only stock: " + onlyStock + "\n only native: " + onlyNative
                    + "\n (" + ((List<?>) stock).size() + " stock rows, " + ((List<?>) nativeRows).size() + " native)");
        }
        assertFalse(((List<?>) stock).isEmpty() && !query.mayBeEmpty(), "no rows at all: " + query.sql());
    }

    private static void checkIslandsRan(Group group, GroupRun run) throws Exception {
        run.ensure();
        assertTrue(run.nativeJob != null, group.name() + ": the native side did not run as one job");
        long expected = group.queries().stream().filter(query -> query.fallback() == null).count();
        long ran = GatunCounters.of(run.nativeJob).entrySet().stream()
                .filter(e -> e.getKey().endsWith(".gatun.rowsIn") && e.getValue().getCount() > 0).count();
        assertTrue(ran >= expected, group.name() + ": " + ran + " islands read rows, expected at least " + expected
                + " (one per query expected native): " + GatunCounters.of(run.nativeJob).keySet());
    }

    /** A group's queries, run once per side. */
    private final class GroupRun {
        private final Group group;
        private Map<String, Object> stock;
        private Map<String, Object> nativeRows;
        private JobID nativeJob;

        GroupRun(Group group) {
            this.group = group;
        }

        void ensure() throws Exception {
            if (stock == null) {
                stock = withSettings(group, () -> runSide(false));
                nativeRows = withSettings(group, () -> runSide(true));
            }
        }

        private Map<String, Object> runSide(boolean nativeEnabled) throws Exception {
            List<String> sqls = group.queries().stream().map(Query::sql).toList();
            Map<String, Object> out = new LinkedHashMap<>();
            try {
                out.putAll(q.runAll(sqls, nativeEnabled, group.upsertKeys()));
                if (nativeEnabled) {
                    nativeJob = q.lastJob();
                }
            } catch (Exception groupFailure) {
                for (String sql : sqls) {
                    try {
                        out.put(sql, q.runAll(List.of(sql), nativeEnabled, group.upsertKeys()).get(sql));
                    } catch (Exception e) {
                        out.put(sql, e);
                    }
                }
            }
            return out;
        }
    }

    private interface Action<T> {
        T run() throws Exception;
    }

    private <T> T withSettings(Group group, Action<T> action) throws Exception {
        Map<String, String> before = q.env().getConfig().getConfiguration().toMap();
        group.settings().forEach(q::set);
        try {
            return action.run();
        } finally {
            group.settings().keySet().forEach(k -> q.set(k, before.getOrDefault(k, NEUTRAL.get(k))));
        }
    }
}
