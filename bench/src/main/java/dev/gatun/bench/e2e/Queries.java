package dev.gatun.bench.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The queries of the end-to-end comparison: the Nexmark benchmark's stateless queries
 * ({@code q0}, {@code q1}, {@code q2}, {@code q21}, {@code q22}, over its views of the wide event
 * table), then issue #7's queries over flat Nexmark-style bids and a wide row, then issue #13's
 * aggregations over the Nexmark stream (two-phase, under the public Nexmark table configuration),
 * which run {@linkplain Query#asPlanned() as planned}.
 */
public final class Queries {
    // issue #12's targets (task CPU stock ÷ Gatun): Nexmark under both object-reuse settings, the
    // existing shapes with Flink's default (reuse off); issue #14's batch target for every Calc that
    // computes something (the pure selections stay on Flink by the cost rule)
    private static final double BATCH_CALC = 1.5;
    private static final Query.CpuTargets Q0_Q1 = new Query.CpuTargets(1.6, 1.2, BATCH_CALC);
    private static final Query.CpuTargets Q2 = new Query.CpuTargets(1.6, 1.6, BATCH_CALC);
    private static final Query.CpuTargets STRING_QUERIES = new Query.CpuTargets(1.8, 1.5, BATCH_CALC);
    private static final Query.CpuTargets EXISTING_SHAPE = new Query.CpuTargets(1.2, Double.NaN, BATCH_CALC);
    private static final Query.CpuTargets SELECTION = new Query.CpuTargets(1.2, Double.NaN, Double.NaN);

    // issue #13's target for the aggregations: total task CPU of the job (every task thread)
    private static final Query.CpuTargets AGGREGATE = new Query.CpuTargets(2.0, 2.0, Double.NaN);
    /** Issue #15's window aggregates: also against RocksDB, whose per-record state access they avoid. */
    private static final Query.CpuTargets WINDOW_AGGREGATE = new Query.CpuTargets(2.0, 2.0, Double.NaN, 4.0);

    /**
     * The public Nexmark configuration's table settings for its stateful queries: mini-batch on
     * (which makes Flink plan group aggregates in two phases) and distinct aggregates split.
     */
    public static final Map<String, String> NEXMARK_TABLE_CONFIG = Map.of(
            "table.exec.mini-batch.enabled", "true",
            "table.exec.mini-batch.allow-latency", "2s",
            "table.exec.mini-batch.size", "50000",
            "table.optimizer.distinct-agg.split.enabled", "true");

    /** The REGEXP_EXTRACT of the Nexmark benchmark's q21. */
    private static final String CHANNEL_ID = "REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 2)";

    public static final List<Query> ALL = List.of(
            Query.nexmark("q0", "Nexmark q0: pass-through of bids",
                    "SELECT auction, bidder, price, `dateTime`, extra FROM bid",
                    Q0_Q1),
            Query.nexmark("q1", "Nexmark q1: currency conversion",
                    "SELECT auction, bidder, 0.908 * price as price, `dateTime`, extra FROM bid",
                    Q0_Q1),
            Query.nexmark("q2", "Nexmark q2: selection MOD(auction, 123) = 0",
                    "SELECT auction, price FROM bid WHERE MOD(auction, 123) = 0",
                    Q2),
            Query.nexmark("q21", "Nexmark q21: channel id (LOWER, CASE, REGEXP_EXTRACT)",
                    "SELECT auction, bidder, price, channel, CASE WHEN lower(channel) = 'apple' THEN '0'"
                            + " WHEN lower(channel) = 'google' THEN '1' WHEN lower(channel) = 'facebook' THEN '2'"
                            + " WHEN lower(channel) = 'baidu' THEN '3' ELSE " + CHANNEL_ID + " END AS channel_id"
                            + " FROM bid WHERE " + CHANNEL_ID + " IS NOT NULL"
                            + " OR lower(channel) IN ('apple', 'google', 'facebook', 'baidu')",
                    STRING_QUERIES),
            Query.nexmark("q22", "Nexmark q22: URL directories (SPLIT_INDEX)",
                    "SELECT auction, bidder, price, channel, SPLIT_INDEX(url, '/', 3) AS dir1,"
                            + " SPLIT_INDEX(url, '/', 4) AS dir2, SPLIT_INDEX(url, '/', 5) AS dir3 FROM bid",
                    STRING_QUERIES),
            Query.flat("island", "perimeter island: all Bid columns reordered", "bid",
                    "SELECT `dateTime`, extra, url, channel, price, bidder, auction FROM bid",
                    SELECTION),
            Query.flat("flatq1", "flat q1: currency conversion", "bid",
                    "SELECT auction, bidder, price * 0.908 AS price, `dateTime`, extra FROM bid",
                    EXISTING_SHAPE),
            Query.flat("flatq2", "flat q2: filter auction % 123 = 0", "bid",
                    "SELECT auction, price FROM bid WHERE auction % 123 = 0",
                    EXISTING_SHAPE),
            Query.flat("strings", "string functions on channel and url", "bid",
                    "SELECT auction, UPPER(channel) AS channel_upper, SUBSTRING(url, 25, 16) AS url_part,"
                            + " CONCAT(LOWER(channel), '|', SUBSTRING(url, 9, 15)) AS tag,"
                            + " REPLACE(url, 'https://www.nexmark.com/', '/') AS path,"
                            + " url LIKE '%channel_id=1%' AS channel_one, channel LIKE 'chan-%' AS other_channel"
                            + " FROM bid",
                    EXISTING_SHAPE),
            Query.flat("case", "CASE chain on price and channel", "bid",
                    "SELECT auction, CASE WHEN price < 1000 THEN 'tiny' WHEN price < 10000 THEN 'small'"
                            + " WHEN price < 100000 THEN 'medium' WHEN price < 1000000 THEN 'large'"
                            + " ELSE 'huge' END AS band,"
                            + " CASE channel WHEN 'Google' THEN 1 WHEN 'Facebook' THEN 2 WHEN 'Baidu' THEN 3"
                            + " WHEN 'Apple' THEN 4 ELSE 0 END AS channel_id FROM bid",
                    EXISTING_SHAPE),
            Query.flat("decimal", "DECIMAL arithmetic", "bid",
                    "SELECT auction, CAST(price AS DECIMAL(18, 2)) * 0.908 AS euro,"
                            + " CAST(price AS DECIMAL(18, 2)) * 1.21 + 0.50 AS gross,"
                            + " CAST(price AS DECIMAL(18, 2)) / 3 AS third FROM bid",
                    EXISTING_SHAPE),
            Query.flat("timestamp", "timestamp EXTRACT and CAST", "bid",
                    "SELECT auction, EXTRACT(YEAR FROM `dateTime`) AS event_year,"
                            + " EXTRACT(MONTH FROM `dateTime`) AS event_month, EXTRACT(DAY FROM `dateTime`) AS event_day,"
                            + " EXTRACT(HOUR FROM `dateTime`) AS event_hour, CAST(`dateTime` AS DATE) AS event_date,"
                            + " CAST(`dateTime` AS TIMESTAMP(6)) AS event_micros FROM bid",
                    EXISTING_SHAPE),
            Query.flat("wide", "wide row: 3 of 40 columns read", "wide40",
                    "SELECT c0, c19, c38 FROM wide40",
                    SELECTION),
            Query.flat("demo", "README demo: strings + CASE + LIKE filter", "bid",
                    "SELECT auction, UPPER(channel) AS channel,"
                            + " CASE WHEN price < 10000 THEN 'small' WHEN price < 1000000 THEN 'medium' ELSE 'large' END"
                            + " AS band, CHAR_LENGTH(url) AS url_length FROM bid WHERE channel LIKE '%o%'",
                    EXISTING_SHAPE),
            Query.nexmark("q17", "Nexmark q17: per-auction daily bid statistics (group aggregate)",
                    "SELECT auction, DATE_FORMAT(`dateTime`, 'yyyy-MM-dd') AS `day`, COUNT(*) AS total_bids,"
                            + " COUNT(*) FILTER (WHERE price < 10000) AS rank1_bids,"
                            + " COUNT(*) FILTER (WHERE price >= 10000 AND price < 1000000) AS rank2_bids,"
                            + " COUNT(*) FILTER (WHERE price >= 1000000) AS rank3_bids,"
                            + " MIN(price) AS min_price, MAX(price) AS max_price, AVG(price) AS avg_price,"
                            + " SUM(price) AS sum_price"
                            + " FROM bid GROUP BY auction, DATE_FORMAT(`dateTime`, 'yyyy-MM-dd')",
                    AGGREGATE).with(NEXMARK_TABLE_CONFIG).asPlanned(),
            Query.flat("aggflat", "two-phase group aggregate over flat bids (no watermark)", "bid",
                    "SELECT auction, COUNT(*) AS bids, COUNT(*) FILTER (WHERE price < 10000) AS cheap,"
                            + " MIN(price) AS min_price, MAX(price) AS max_price, AVG(price) AS avg_price,"
                            + " SUM(price) AS sum_price FROM bid GROUP BY auction",
                    AGGREGATE).with(NEXMARK_TABLE_CONFIG).asPlanned(),
            Query.nexmark("q7w", "Nexmark q7's window part: TUMBLE 10 s MAX(price) per auction",
                    "SELECT auction, window_start, window_end, MAX(price) AS max_price"
                            + " FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '10' SECOND))"
                            + " GROUP BY auction, window_start, window_end",
                    WINDOW_AGGREGATE).with(NEXMARK_TABLE_CONFIG).asPlanned(),
            Query.nexmark("q5w", "Nexmark q5's window part: HOP 10 s / 2 s COUNT(*) per auction",
                    "SELECT auction, COUNT(*) AS num, window_start AS starttime, window_end AS endtime"
                            + " FROM TABLE(HOP(TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND,"
                            + " INTERVAL '10' SECOND)) GROUP BY auction, window_start, window_end",
                    WINDOW_AGGREGATE).with(NEXMARK_TABLE_CONFIG).asPlanned());

    // ---- issue #14's batch aggregates: the local hash aggregate (with the Calc below it) native.
    // Not in ALL (its queries are stateless Calcs); select them by id or as "batch-aggregates".

    /** Issue #14's target where the local aggregate is native: batch mode only. */
    private static final Query.CpuTargets BATCH_AGGREGATE = new Query.CpuTargets(Double.NaN, Double.NaN, 2.0);

    public static final List<Query> BATCH_AGGREGATES = List.of(
            Query.flat("tpch1", "TPC-H q1 (pricing summary) over a generated lineitem", "lineitem",
                    "SELECT l_returnflag, l_linestatus, SUM(l_quantity) AS sum_qty,"
                            + " SUM(l_extendedprice) AS sum_base_price,"
                            + " SUM(l_extendedprice * (1 - l_discount)) AS sum_disc_price,"
                            + " SUM(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge,"
                            + " AVG(l_quantity) AS avg_qty, AVG(l_extendedprice) AS avg_price,"
                            + " AVG(l_discount) AS avg_disc, COUNT(*) AS count_order FROM lineitem"
                            + " WHERE l_shipdate <= DATE '1998-12-01' - INTERVAL '90' DAY"
                            + " GROUP BY l_returnflag, l_linestatus",
                    BATCH_AGGREGATE).asPlanned(),
            Query.nexmark("bidagg", "Nexmark bids per auction: COUNT, SUM, MIN, MAX, AVG of price",
                    "SELECT auction, COUNT(*) AS bids, SUM(price) AS total, MIN(price) AS low, MAX(price) AS high,"
                            + " AVG(price) AS average FROM bid GROUP BY auction",
                    BATCH_AGGREGATE).asPlanned());

    // ---- end of issue #14's batch aggregates

    private Queries() {}

    /** A query over the Nexmark views without a target (the demo's own). */
    public static Query nexmark(String id, String title, String sql) {
        return Query.nexmark(id, title, sql, new Query.CpuTargets(Double.NaN, Double.NaN, Double.NaN));
    }

    /** {@code all} ({@link #ALL}), {@code batch-aggregates}, or a comma-separated list of ids of either. */
    public static List<Query> select(String ids) {
        if (ids.equals("all")) {
            return ALL;
        }
        if (ids.equals("batch-aggregates")) {
            return BATCH_AGGREGATES;
        }
        List<Query> known = new ArrayList<>(ALL);
        known.addAll(BATCH_AGGREGATES);
        List<Query> out = new ArrayList<>();
        for (String id : ids.split(",")) {
            out.add(known.stream().filter(q -> q.id().equals(id.trim())).findFirst().orElseThrow(() ->
                    new IllegalArgumentException("unknown query '" + id + "'; known: "
                            + known.stream().map(Query::id).toList())));
        }
        return out;
    }
}
