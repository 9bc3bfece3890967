package dev.gatun.sql;

/** The table and queries every test here runs: a bounded, deterministic datagen table. */
final class Bids {
    private Bids() {}

    static final int ROWS = 2000;

    static final String CREATE = "CREATE TABLE bids (auction BIGINT, price BIGINT, channel STRING) WITH ("
            + " 'connector' = 'datagen', 'number-of-rows' = '" + ROWS + "',"
            + " 'fields.auction.kind' = 'sequence', 'fields.auction.start' = '1', 'fields.auction.end' = '" + ROWS + "',"
            + " 'fields.price.kind' = 'sequence', 'fields.price.start' = '1001', 'fields.price.end' = '" + (1000 + ROWS) + "',"
            + " 'fields.channel.length' = '6')";

    /** A Calc Gatun admits (arithmetic and a filter): native when forced. */
    static final String NATIVE_QUERY = "SELECT auction, price * 3 - auction AS score FROM bids WHERE auction % 7 = 0";

    /** A Calc with a function that has no native translation: stays on Flink, with its reason. */
    static final String FALLBACK_QUERY = "SELECT auction, MD5(channel) AS digest FROM bids";

    static final String FALLBACK_REASON = "gatun=[stock: MD5(STRING) has no native translation]";

    /** NATIVE_QUERY's rows, as "auction,score", computed here. */
    static java.util.Set<String> expectedNativeQueryRows() {
        java.util.Set<String> rows = new java.util.TreeSet<>();
        for (long auction = 7; auction <= ROWS; auction += 7) {
            rows.add(auction + "," + ((auction + 1000) * 3 - auction));
        }
        return rows;
    }
}
