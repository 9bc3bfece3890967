package dev.gatun.bench.e2e;

/**
 * One end-to-end query: a {@code SELECT} over the source table named after {@code kind}, and its
 * target as the lowest acceptable native/stock throughput ratio. The Gatun runs always set
 * {@code gatun.native.force}: the benchmark measures the native path itself, and its figures are
 * what the planner's cost rule ({@code CostRule.MEASURED}) decides with.
 */
public record Query(String id, String title, String kind, String sql, double minRatio, String target) {}
