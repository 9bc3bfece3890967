package dev.gatun.bench.e2e;

import java.util.ArrayList;
import java.util.List;

/** The stateless queries of the end-to-end comparison (issue #7), over Nexmark-style bids and a wide row. */
public final class Queries {
    private static final double NEVER_SLOWER = 1.0;
    private static final double EXPRESSION_HEAVY = 1.5;

    public static final List<Query> ALL = List.of(
            new Query("island", "perimeter island: all Bid columns reordered", "bid",
                    "SELECT `dateTime`, extra, url, channel, price, bidder, auction FROM bid",
                    1 / 1.15, "≤ 1.15× stock time"),
            new Query("q1", "q1: currency conversion", "bid",
                    "SELECT auction, bidder, price * 0.908 AS price, `dateTime`, extra FROM bid",
                    NEVER_SLOWER, "never slower than stock"),
            new Query("q2", "q2: filter auction % 123 = 0", "bid",
                    "SELECT auction, price FROM bid WHERE auction % 123 = 0",
                    NEVER_SLOWER, "never slower than stock"),
            new Query("strings", "string functions on channel and url", "bid",
                    "SELECT auction, UPPER(channel) AS channel_upper, SUBSTRING(url, 25, 16) AS url_part,"
                            + " CONCAT(LOWER(channel), '|', SUBSTRING(url, 9, 15)) AS tag,"
                            + " REPLACE(url, 'https://www.nexmark.com/', '/') AS path,"
                            + " url LIKE '%channel_id=1%' AS channel_one, channel LIKE 'chan-%' AS other_channel"
                            + " FROM bid",
                    EXPRESSION_HEAVY, "≥ 1.5× stock throughput"),
            new Query("case", "CASE chain on price and channel", "bid",
                    "SELECT auction, CASE WHEN price < 1000 THEN 'tiny' WHEN price < 10000 THEN 'small'"
                            + " WHEN price < 100000 THEN 'medium' WHEN price < 1000000 THEN 'large'"
                            + " ELSE 'huge' END AS band,"
                            + " CASE channel WHEN 'Google' THEN 1 WHEN 'Facebook' THEN 2 WHEN 'Baidu' THEN 3"
                            + " WHEN 'Apple' THEN 4 ELSE 0 END AS channel_id FROM bid",
                    EXPRESSION_HEAVY, "≥ 1.5× stock throughput"),
            new Query("decimal", "DECIMAL arithmetic", "bid",
                    "SELECT auction, CAST(price AS DECIMAL(18, 2)) * 0.908 AS euro,"
                            + " CAST(price AS DECIMAL(18, 2)) * 1.21 + 0.50 AS gross,"
                            + " CAST(price AS DECIMAL(18, 2)) / 3 AS third FROM bid",
                    EXPRESSION_HEAVY, "≥ 1.5× stock throughput"),
            new Query("timestamp", "timestamp EXTRACT and CAST", "bid",
                    "SELECT auction, EXTRACT(YEAR FROM `dateTime`) AS event_year,"
                            + " EXTRACT(MONTH FROM `dateTime`) AS event_month, EXTRACT(DAY FROM `dateTime`) AS event_day,"
                            + " EXTRACT(HOUR FROM `dateTime`) AS event_hour, CAST(`dateTime` AS DATE) AS event_date,"
                            + " CAST(`dateTime` AS TIMESTAMP(6)) AS event_micros FROM bid",
                    EXPRESSION_HEAVY, "≥ 1.5× stock throughput"),
            new Query("wide", "wide row: 3 of 40 columns read", "wide40",
                    "SELECT c0, c19, c38 FROM wide40",
                    1 / 1.1, "≤ 1.1× stock time"),
            new Query("demo", "README demo: strings + CASE + LIKE filter", "bid",
                    "SELECT auction, UPPER(channel) AS channel,"
                            + " CASE WHEN price < 10000 THEN 'small' WHEN price < 1000000 THEN 'medium' ELSE 'large' END"
                            + " AS band, CHAR_LENGTH(url) AS url_length FROM bid WHERE channel LIKE '%o%'",
                    EXPRESSION_HEAVY, "≥ 1.5× stock throughput"));

    private Queries() {}

    /** {@code all} or a comma-separated list of ids. */
    public static List<Query> select(String ids) {
        if (ids.equals("all")) {
            return ALL;
        }
        List<Query> out = new ArrayList<>();
        for (String id : ids.split(",")) {
            out.add(ALL.stream().filter(q -> q.id().equals(id.trim())).findFirst().orElseThrow(() ->
                    new IllegalArgumentException("unknown query '" + id + "'; known: "
                            + ALL.stream().map(Query::id).toList())));
        }
        return out;
    }
}
