package dev.gatun.bench.e2e;

import dev.gatun.bench.nexmark.Nexmark;
import dev.gatun.bench.nexmark.NexmarkEventSourceFactory;
import dev.gatun.bench.rows.RowFormat;
import dev.gatun.bench.rows.Shapes;
import java.util.List;
import java.util.Map;

/**
 * One end-to-end query: a {@code SELECT} over what {@code ddl} creates (a table of {@code rows}
 * input rows, and views over it), and its target as the lowest acceptable native/stock throughput
 * ratio.
 *
 * <p>The Gatun runs of a Calc query set {@code gatun.native.force}: the benchmark measures the
 * native Calc itself, and its figures are what the planner's cost rule ({@code CostRule.ALONE} and
 * {@code CostRule.FUSED}) decides with. An aggregate query runs {@link #asPlanned() as planned}:
 * what the aggregate islands cost in the plan {@code Gatun.enable} gives a user, with the Calcs
 * around them where the cost rule puts them.
 *
 * @param source what the query reads: a {@code gatun-nexmark} kind, or {@code nexmark} for the
 *     Nexmark event stream and its views
 * @param forced whether the Gatun runs set {@code gatun.native.force}
 */
public record Query(String id, String title, String source, Ddl ddl, String sql, CpuTargets targets,
                    Map<String, String> config, boolean forced) {
    public Query {
        config = Map.copyOf(config);
    }

    public Query(String id, String title, String source, Ddl ddl, String sql, CpuTargets targets) {
        this(id, title, source, ddl, sql, targets, Map.of(), true);
    }

    /** This query with {@code options} set in its table configuration (both engines). */
    public Query with(Map<String, String> options) {
        Map<String, String> all = new java.util.LinkedHashMap<>(config);
        all.putAll(options);
        return new Query(id, title, source, ddl, sql, targets, all, forced);
    }

    /** This query with its Gatun runs planned as {@code Gatun.enable} alone plans them (no force switch). */
    public Query asPlanned() {
        return new Query(id, title, source, ddl, sql, targets, config, false);
    }

    /**
     * The query's targets: task-thread CPU stock ÷ Gatun (median over trial pairs) at least this much,
     * per streaming {@code pipeline.object-reuse} setting on the heap state backend, on RocksDB (either
     * setting; NaN: the heap's) and in batch mode; NaN where there is none.
     */
    public record CpuTargets(double reuseOff, double reuseOn, double batch, double rocksdb) {
        public CpuTargets(double reuseOff, double reuseOn, double batch) {
            this(reuseOff, reuseOn, batch, Double.NaN);
        }

        public double under(boolean objectReuse) {
            return objectReuse ? reuseOn : reuseOff;
        }

        /** The target of a run in {@code mode} ({@code Trial.STREAMING} or {@code Trial.BATCH}) on {@code backend}. */
        public double under(String mode, boolean objectReuse, String backend) {
            if (mode.equals(Trial.BATCH)) {
                return batch;
            }
            return backend.equals(Trial.HEAP) || Double.isNaN(rocksdb) ? under(objectReuse) : rocksdb;
        }
    }

    /** The source name of the queries over the Nexmark event stream. */
    public static final String NEXMARK = "nexmark";

    /**
     * The statements that create what a query reads, for {@code rows} input rows (events, for
     * Nexmark), its sources reporting their task threads' CPU under {@code cpuKey} when not null.
     */
    @FunctionalInterface
    public interface Ddl {
        List<String> statements(long rows, long seed, RowFormat format, String cpuKey);

        default List<String> statements(long rows, long seed, RowFormat format) {
            return statements(rows, seed, format, null);
        }
    }

    /** A query over one flat table of {@code gatun-nexmark} kind {@code kind}, named after the kind. */
    static Query flat(String id, String title, String kind, String sql, CpuTargets targets) {
        return new Query(id, title, kind, (rows, seed, format, cpuKey) -> List.of(
                NexmarkSourceFactory.createTableDdl(kind, Shapes.byName(kind), rows, seed, format, cpuKey)),
                sql, targets);
    }

    /**
     * A query of the Nexmark benchmark over its views ({@code person}, {@code auction}, {@code bid})
     * of the wide event table; the seed does not apply (events are seeded by their id).
     */
    public static Query nexmark(String id, String title, String sql, CpuTargets targets) {
        return new Query(id, title, NEXMARK, (rows, seed, format, cpuKey) -> NexmarkEventSourceFactory.ddl(rows,
                Nexmark.DEFAULT_EVENTS_PER_SECOND, format, cpuKey), sql, targets);
    }
}
