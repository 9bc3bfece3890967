package dev.gatun.planner.testing;

import dev.gatun.planner.GatunOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.flink.api.common.JobID;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * Runs one query stock and native and compares the whole result row by row (rows keyed by their
 * first column, an id), naming the first differing expressions; or, when stock fails, checks that
 * native fails with the same root-cause message.
 */
public final class ParityRuns {
    private ParityRuns() {}

    /** What one run produced: the rows by id, or the failure; the job, when one was submitted. */
    public record Outcome(Map<Object, Row> rows, Throwable failure, JobID job) {}

    public static Outcome run(Queries q, String sql, boolean nativeEnabled) {
        q.env().getConfig().set(GatunOptions.NATIVE_ENABLED, nativeEnabled);
        JobID job = null;
        try {
            TableResult result = q.env().executeSql(sql);
            job = result.getJobClient().orElseThrow().getJobID();
            Map<Object, Row> rows = new TreeMap<>((a, b) -> Long.compare(((Number) a).longValue(), ((Number) b).longValue()));
            try (CloseableIterator<Row> it = result.collect()) {
                it.forEachRemaining(r -> rows.put(r.getField(0), r));
            }
            result.getJobClient().orElseThrow().getJobExecutionResult().get();
            return new Outcome(rows, null, job);
        } catch (Exception e) {
            return new Outcome(null, e, job);
        } finally {
            q.env().getConfig().set(GatunOptions.NATIVE_ENABLED, true);
        }
    }

    /**
     * Differences between the stock and native results of {@code sql}, whose projections after the
     * id are {@code expressions}; empty when they are equal.
     */
    public static List<String> differences(Queries q, String sql, List<String> expressions) {
        return differences(q, sql, expressions, run(q, sql, false));
    }

    /** As above, with stock's outcome already known. */
    public static List<String> differences(Queries q, String sql, List<String> expressions, Outcome stock) {
        return differences(expressions, stock, run(q, sql, true));
    }

    /** As above, with both outcomes known. */
    public static List<String> differences(List<String> expressions, Outcome stock, Outcome gatun) {
        List<String> out = new ArrayList<>();
        if (stock.failure() != null || gatun.failure() != null) {
            if (stock.failure() == null) {
                out.add("native failed where stock did not: " + chain(gatun.failure()));
            } else if (gatun.failure() == null) {
                out.add("stock failed where native did not: " + chain(stock.failure()));
            } else if (!sameFailure(stock.failure(), gatun.failure())) {
                out.add("both failed, differently: stock " + rootMessage(stock.failure()) + " / native "
                        + chain(gatun.failure()));
            }
            return out;
        }
        if (!stock.rows().keySet().equals(gatun.rows().keySet())) {
            out.add("row ids differ: stock " + stock.rows().size() + " rows, native " + gatun.rows().size());
            return out;
        }
        for (Map.Entry<Object, Row> e : stock.rows().entrySet()) {
            Row s = e.getValue();
            Row g = gatun.rows().get(e.getKey());
            if (!s.getKind().equals(g.getKind())) {
                out.add("id " + e.getKey() + ": row kind " + s.getKind() + " vs " + g.getKind());
            }
            for (int c = 1; c < s.getArity(); c++) {
                String sv = String.valueOf(s.getField(c));
                String gv = String.valueOf(g.getField(c));
                if (!Objects.equals(sv, gv)) {
                    out.add("id " + e.getKey() + ": " + expressions.get(c - 1) + " stock=" + escape(sv) + " native=" + escape(gv));
                }
            }
        }
        return out;
    }

    /**
     * Rows the native Calcs of {@code job} read (their {@code gatun.rowsIn} counters, kept by
     * {@link GatunCounters} on the shared cluster), or -1 when the job ran no native Calc.
     */
    public static long nativeRowsIn(JobID job) {
        long rows = 0;
        int counters = 0;
        for (var e : GatunCounters.of(job).entrySet()) {
            if (e.getKey().endsWith(".gatun.rowsIn")) {
                rows += e.getValue().getCount();
                counters++;
            }
        }
        return counters == 0 ? -1 : rows;
    }

    /** The result of {@code sql} stock, which must succeed. */
    public static Map<Object, Row> stock(Queries q, String sql) {
        Outcome o = run(q, sql, false);
        if (o.failure() != null) {
            throw new AssertionError("stock Flink failed on " + sql, o.failure());
        }
        return o.rows();
    }

    /** Native raised what stock raised: its messages carry stock's root-cause message or exception class. */
    public static boolean sameFailure(Throwable stock, Throwable gatun) {
        String chain = chain(gatun);
        return chain.contains(rootMessage(stock)) || chain.contains(root(stock).getClass().getName());
    }

    private static Throwable root(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }

    public static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return String.valueOf(root.getMessage());
    }

    public static String chain(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            sb.append(c).append(" <- ");
        }
        return sb.toString();
    }

    private static String escape(String s) {
        StringBuilder sb = new StringBuilder();
        s.codePoints().forEach(cp -> {
            if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0)) {
                sb.append(String.format("\\u%04X", cp));
            } else {
                sb.appendCodePoint(cp);
            }
        });
        return sb.length() > 200 ? sb.substring(0, 200) + "..." : sb.toString();
    }
}
