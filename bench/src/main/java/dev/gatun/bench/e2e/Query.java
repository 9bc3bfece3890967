package dev.gatun.bench.e2e;

/**
 * One end-to-end query: a {@code SELECT} over the source table named after {@code kind}, and its
 * target as the lowest acceptable native/stock throughput ratio. {@code forceNative} sets
 * {@code gatun.native.force} for the Gatun runs: the planner's cost rule keeps pure projections
 * (the perimeter island, the pruned wide row) on Flink, and those queries exist to measure the
 * perimeter itself.
 */
public record Query(String id, String title, String kind, String sql, double minRatio, String target,
                    boolean forceNative) {
    public Query(String id, String title, String kind, String sql, double minRatio, String target) {
        this(id, title, kind, sql, minRatio, target, false);
    }
}
