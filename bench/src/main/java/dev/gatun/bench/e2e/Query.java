package dev.gatun.bench.e2e;

/**
 * One end-to-end query: a {@code SELECT} over the source table named after {@code kind}, and its
 * target as the lowest acceptable native/stock throughput ratio.
 */
public record Query(String id, String title, String kind, String sql, double minRatio, String target) {}
