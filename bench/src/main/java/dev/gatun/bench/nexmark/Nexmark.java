package dev.gatun.bench.nexmark;

import java.util.Random;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * The Nexmark benchmark's event model: the fixed configuration of the public Nexmark Flink
 * benchmark (github.com/nexmark/nexmark, whose generator comes from Apache Beam's Nexmark) at its
 * defaults, the rules that derive person and auction ids from an event id, and the wide event row
 * its source hands to Flink. Written from the benchmark's description; see
 * {@link NexmarkGenerator} for what differs.
 */
public final class Nexmark {
    /** {@code event_type} of a person, an auction and a bid. */
    public static final int PERSON = 0;
    public static final int AUCTION = 1;
    public static final int BID = 2;

    /** Out of every 50 consecutive event ids: 1 person, 3 auctions, 46 bids, in this order. */
    public static final int PERSON_PROPORTION = 1;
    public static final int AUCTION_PROPORTION = 3;
    public static final int BID_PROPORTION = 46;
    public static final int TOTAL_PROPORTION = PERSON_PROPORTION + AUCTION_PROPORTION + BID_PROPORTION;

    /** Ids start high so that queries find matches even on small streams. */
    public static final long FIRST_PERSON_ID = 1000;
    public static final long FIRST_AUCTION_ID = 1000;
    public static final long FIRST_CATEGORY_ID = 10;
    public static final int NUM_CATEGORIES = 5;

    /**
     * A bid is for a hot auction unless {@code nextInt(2) == 0}; by a hot bidder, and an auction by
     * a hot seller, unless {@code nextInt(4) == 0}.
     */
    public static final int HOT_AUCTION_RATIO = 2;
    public static final int HOT_BIDDERS_RATIO = 4;
    public static final int HOT_SELLERS_RATIO = 4;
    /**
     * The hot auction (and hot seller) is the first id of the batch of this many ids that holds
     * the last one generated; the hot bidder is the second, so hot bidders and sellers differ.
     */
    public static final int HOT_BATCH = 100;

    /** Non-hot sellers and bidders come from the last 1000 people plus 10 not yet created. */
    public static final int NUM_ACTIVE_PEOPLE = 1000;
    public static final int PERSON_ID_LEAD = 10;
    /** Non-hot auctions of bids come from the last 100 auctions plus 10 not yet created. */
    public static final int NUM_IN_FLIGHT_AUCTIONS = 100;
    public static final int AUCTION_ID_LEAD = 10;

    /** Average sizes the {@code extra} strings pad each kind to, by the benchmark's byte accounting. */
    public static final int AVG_PERSON_BYTES = 200;
    public static final int AVG_AUCTION_BYTES = 500;
    public static final int AVG_BID_BYTES = 100;

    /** Half the bids are on one of the 4 hot channels, the rest on {@code channel-N}, N below 10,000. */
    public static final int HOT_CHANNELS_RATIO = 2;
    public static final int CHANNELS = 10_000;

    /** The benchmark's default event rate (its TPS), which spaces the event timestamps. */
    public static final long DEFAULT_EVENTS_PER_SECOND = 10_000_000;

    private static final LogicalType STRING = VarCharType.STRING_TYPE;
    private static final LogicalType BIGINT = new BigIntType();
    private static final LogicalType TIMESTAMP3 = new TimestampType(3);

    public static final RowType PERSON_TYPE = RowType.of(
            new LogicalType[] {BIGINT, STRING, STRING, STRING, STRING, STRING, TIMESTAMP3, STRING},
            new String[] {"id", "name", "emailAddress", "creditCard", "city", "state", "dateTime", "extra"});
    public static final RowType AUCTION_TYPE = RowType.of(
            new LogicalType[] {BIGINT, STRING, STRING, BIGINT, BIGINT, TIMESTAMP3, TIMESTAMP3, BIGINT, BIGINT, STRING},
            new String[] {"id", "itemName", "description", "initialBid", "reserve", "dateTime", "expires", "seller",
                "category", "extra"});
    public static final RowType BID_TYPE = RowType.of(
            new LogicalType[] {BIGINT, BIGINT, BIGINT, STRING, STRING, TIMESTAMP3, STRING},
            new String[] {"auction", "bidder", "price", "channel", "url", "dateTime", "extra"});
    /** The wide event row: {@code event_type} and one nullable ROW per kind, exactly one of them set. */
    public static final RowType EVENT_TYPE = RowType.of(
            new LogicalType[] {new IntType(), PERSON_TYPE, AUCTION_TYPE, BID_TYPE},
            new String[] {"event_type", "person", "auction", "bid"});

    private Nexmark() {}

    /** The kind of event {@code eventId}: its place in its epoch of 50. */
    public static int kind(long eventId) {
        long offset = eventId % TOTAL_PROPORTION;
        if (offset < PERSON_PROPORTION) {
            return PERSON;
        }
        return offset < PERSON_PROPORTION + AUCTION_PROPORTION ? AUCTION : BID;
    }

    /**
     * The base-0 id of the last person generated up to {@code eventId}: the person of this event
     * when it is one, else the last person of its epoch.
     */
    public static long lastBase0PersonId(long eventId) {
        long epoch = eventId / TOTAL_PROPORTION;
        long offset = Math.min(eventId % TOTAL_PROPORTION, PERSON_PROPORTION - 1);
        return epoch * PERSON_PROPORTION + offset;
    }

    /**
     * The base-0 id of the last auction generated up to {@code eventId}: the auction of this
     * event when it is one; for a bid the last auction of its epoch; for a person the last auction
     * of the previous epoch (-1 for the very first event, which is a person).
     */
    public static long lastBase0AuctionId(long eventId) {
        long epoch = eventId / TOTAL_PROPORTION;
        long offset = eventId % TOTAL_PROPORTION;
        if (offset < PERSON_PROPORTION) {
            epoch--;
            offset = AUCTION_PROPORTION - 1;
        } else if (offset >= PERSON_PROPORTION + AUCTION_PROPORTION) {
            offset = AUCTION_PROPORTION - 1;
        } else {
            offset -= PERSON_PROPORTION;
        }
        return epoch * AUCTION_PROPORTION + offset;
    }

    /** A random recent person (base 0): one of the last 1000 people or the 10 ids after them. */
    public static long nextBase0PersonId(long eventId, Random random) {
        long people = lastBase0PersonId(eventId) + 1;
        long active = Math.min(people, NUM_ACTIVE_PEOPLE);
        return people - active + nextLong(random, active + PERSON_ID_LEAD);
    }

    /** A random in-flight auction (base 0): one of the last 100 auctions or the 10 ids after them. */
    public static long nextBase0AuctionId(long eventId, Random random) {
        long last = lastBase0AuctionId(eventId);
        long min = Math.max(last - NUM_IN_FLIGHT_AUCTIONS, 0);
        return min + nextLong(random, last - min + 1 + AUCTION_ID_LEAD);
    }

    /** A long in {@code [0, n)}: {@code nextInt} while {@code n} fits, as the benchmark draws it. */
    static long nextLong(Random random, long n) {
        return n < Integer.MAX_VALUE ? random.nextInt((int) n) : Math.abs(random.nextLong() % n);
    }

    /** A price in cents, log-uniform over 1 to 1,000,000 dollars: {@code round(10^(6u) * 100)}. */
    static long nextPrice(Random random) {
        return Math.round(Math.pow(10.0, random.nextDouble() * 6.0) * 100.0);
    }
}
