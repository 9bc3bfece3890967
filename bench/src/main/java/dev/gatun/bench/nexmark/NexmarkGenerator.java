package dev.gatun.bench.nexmark;

import static dev.gatun.bench.nexmark.Nexmark.AVG_AUCTION_BYTES;
import static dev.gatun.bench.nexmark.Nexmark.AVG_BID_BYTES;
import static dev.gatun.bench.nexmark.Nexmark.AVG_PERSON_BYTES;
import static dev.gatun.bench.nexmark.Nexmark.FIRST_AUCTION_ID;
import static dev.gatun.bench.nexmark.Nexmark.FIRST_CATEGORY_ID;
import static dev.gatun.bench.nexmark.Nexmark.FIRST_PERSON_ID;
import static dev.gatun.bench.nexmark.Nexmark.HOT_BATCH;

import java.util.Random;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

/**
 * The Nexmark event stream, one wide event row per event id, as the Nexmark Flink benchmark's
 * generator and its {@code RowData} deserializer produce it: a fresh {@link GenericRowData}
 * ({@code event_type}, person, auction, bid) whose one non-NULL field is a fresh nested
 * {@code GenericRowData} with lazy {@link StringData#fromString} strings.
 *
 * <p>Event {@code i} depends on {@code i} alone (so any split or parallelism gives the same
 * events): its kind is {@code i % 50}, its ids follow {@link Nexmark}'s "last base-0 id" rules,
 * its values come from a {@code java.util.Random} seeded from {@code i} (Apache Beam's Nexmark,
 * and the first Nexmark Flink generator, seed one per event with the id itself; here the id is
 * mixed first, see {@link #seed}), and its timestamp is
 * {@code baseTime + (long) (i * interEventDelayUs) / 1000} with {@code interEventDelayUs =
 * 1e6 / eventsPerSecond}: all events lie on one timeline (event id = event number, first id 0),
 * whatever the parallelism.
 *
 * <p>Where this differs from the benchmark's source, deliberately:
 * <ul>
 *   <li>the benchmark now draws from one unseeded {@code SplittableRandom} per generator, its
 *       URLs and padding text from unseeded ones too, and starts its timeline at the wall clock:
 *       its events are not reproducible. Here the same draws, in the same order, come from the
 *       per-event seeded {@code Random}; URLs and padding from seeded ones; the base time is fixed;
 *   <li>the benchmark splits its id space into one timeline per parallel generator; here there is
 *       one timeline (the benchmark at parallelism 1).
 * </ul>
 * Kept as the benchmark has it: a bid's bidder gets {@code FIRST_PERSON_ID} added twice (bidder
 * ids are base-0 person ids + 2000), and the sizes {@code extra} pads to count a bid's fixed
 * fields as 32 bytes and not its channel or URL.
 *
 * <p>Not thread-safe (one {@code Random}, reseeded per event): one instance per reader.
 */
public final class NexmarkGenerator {
    /** What the benchmark's bid adds to a base-0 person id (see the class comment). */
    public static final long BIDDER_OFFSET = 2 * FIRST_PERSON_ID;
    /** The fixed fields of a bid (auction, bidder, price, dateTime) in the benchmark's size accounting. */
    public static final int BID_FIXED_BYTES = 8 + 8 + 8 + 8;
    /** An auction's id and five more 8-byte numbers and times, as the benchmark counts them. */
    public static final int AUCTION_FIXED_BYTES = 8 + 8 + 8 + 8 + 8 + 8;
    /** id. */
    public static final int PERSON_FIXED_BYTES = 8;

    private final long baseTime;
    private final double interEventDelayUs;
    private final Random random = new Random();

    /**
     * @param baseTime the timestamp of event 0, epoch milliseconds
     * @param eventsPerSecond the event rate that spaces the timestamps (many events share a millisecond)
     */
    public NexmarkGenerator(long baseTime, long eventsPerSecond) {
        if (eventsPerSecond <= 0) {
            throw new IllegalArgumentException("the event rate must be positive: " + eventsPerSecond);
        }
        this.baseTime = baseTime;
        this.interEventDelayUs = 1_000_000.0 / eventsPerSecond;
    }

    /** The event time of event number {@code eventNumber}, epoch milliseconds. */
    public long timestamp(long eventNumber) {
        return baseTime + (long) (eventNumber * interEventDelayUs) / 1000L;
    }

    /**
     * The seed of event {@code eventId}'s {@code Random}: the id through a SplitMix64 finalizer.
     * Raw consecutive ids as seeds (Beam's {@code new Random(eventId)}) give nearly equal first
     * draws: a bid's first draw decides whether its auction is hot, and over 200,000 events from id
     * 1,000,000 it came out hot in runs of up to 7,536 consecutive bids, 53.4 % overall instead of
     * 50 %. Mixed seeds give independent-looking draws (runs of at most 18, 49.8 %), like the
     * benchmark's one unseeded generator, and stay a function of the id.
     */
    public static long seed(long eventId) {
        long z = eventId * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Event {@code eventId} as a fresh wide row. */
    public GenericRowData event(long eventId) {
        random.setSeed(seed(eventId));
        long timestamp = timestamp(eventId);
        int kind = Nexmark.kind(eventId);
        GenericRowData event = new GenericRowData(4);
        event.setField(0, kind);
        event.setField(1 + kind, switch (kind) {
            case Nexmark.PERSON -> person(eventId, timestamp);
            case Nexmark.AUCTION -> auction(eventId, timestamp);
            default -> bid(eventId, timestamp);
        });
        return event;
    }

    private GenericRowData person(long eventId, long timestamp) {
        long id = Nexmark.lastBase0PersonId(eventId) + FIRST_PERSON_ID;
        String name = NexmarkStrings.personName(random);
        String email = NexmarkStrings.email(random);
        String creditCard = NexmarkStrings.creditCard(random);
        String city = NexmarkStrings.city(random);
        String state = NexmarkStrings.state(random);
        int size = PERSON_FIXED_BYTES + name.length() + email.length() + creditCard.length() + city.length()
                + state.length();
        String extra = NexmarkStrings.nextExtra(random, size, AVG_PERSON_BYTES);
        GenericRowData person = new GenericRowData(8);
        person.setField(0, id);
        person.setField(1, StringData.fromString(name));
        person.setField(2, StringData.fromString(email));
        person.setField(3, StringData.fromString(creditCard));
        person.setField(4, StringData.fromString(city));
        person.setField(5, StringData.fromString(state));
        person.setField(6, TimestampData.fromEpochMillis(timestamp));
        person.setField(7, StringData.fromString(extra));
        return person;
    }

    private GenericRowData auction(long eventId, long timestamp) {
        long id = Nexmark.lastBase0AuctionId(eventId) + FIRST_AUCTION_ID;
        long seller = random.nextInt(Nexmark.HOT_SELLERS_RATIO) > 0
                ? (Nexmark.lastBase0PersonId(eventId) / HOT_BATCH) * HOT_BATCH
                : Nexmark.nextBase0PersonId(eventId, random);
        seller += FIRST_PERSON_ID;
        long category = FIRST_CATEGORY_ID + random.nextInt(Nexmark.NUM_CATEGORIES);
        long initialBid = Nexmark.nextPrice(random);
        long expires = timestamp + auctionLengthMillis(eventId, timestamp);
        String itemName = NexmarkStrings.nextString(random, 20, ' ');
        String description = NexmarkStrings.nextString(random, 100, ' ');
        long reserve = initialBid + Nexmark.nextPrice(random);
        int size = AUCTION_FIXED_BYTES + itemName.length() + description.length();
        String extra = NexmarkStrings.nextExtra(random, size, AVG_AUCTION_BYTES);
        GenericRowData auction = new GenericRowData(10);
        auction.setField(0, id);
        auction.setField(1, StringData.fromString(itemName));
        auction.setField(2, StringData.fromString(description));
        auction.setField(3, initialBid);
        auction.setField(4, reserve);
        auction.setField(5, TimestampData.fromEpochMillis(timestamp));
        auction.setField(6, TimestampData.fromEpochMillis(expires));
        auction.setField(7, seller);
        auction.setField(8, category);
        auction.setField(9, StringData.fromString(extra));
        return auction;
    }

    /**
     * How long an auction runs: uniform in {@code [1, 2 * horizon]} ms, the horizon being the time
     * until the auction 100 auctions ahead ({@code 100 * 50 / 3} events later) is created.
     */
    private long auctionLengthMillis(long eventNumber, long timestamp) {
        long eventsForAuctions = ((long) Nexmark.NUM_IN_FLIGHT_AUCTIONS * Nexmark.TOTAL_PROPORTION)
                / Nexmark.AUCTION_PROPORTION;
        long horizon = timestamp(eventNumber + eventsForAuctions) - timestamp;
        return 1L + Nexmark.nextLong(random, Math.max(horizon * 2, 1L));
    }

    private GenericRowData bid(long eventId, long timestamp) {
        long auction = random.nextInt(Nexmark.HOT_AUCTION_RATIO) > 0
                ? (Nexmark.lastBase0AuctionId(eventId) / HOT_BATCH) * HOT_BATCH
                : Nexmark.nextBase0AuctionId(eventId, random);
        auction += FIRST_AUCTION_ID;
        long bidder = random.nextInt(Nexmark.HOT_BIDDERS_RATIO) > 0
                ? (Nexmark.lastBase0PersonId(eventId) / HOT_BATCH) * HOT_BATCH + 1
                : Nexmark.nextBase0PersonId(eventId, random);
        bidder += BIDDER_OFFSET;
        long price = Nexmark.nextPrice(random);
        String channel;
        String url;
        if (random.nextInt(Nexmark.HOT_CHANNELS_RATIO) > 0) {
            int hot = random.nextInt(NexmarkStrings.HOT_CHANNELS.length);
            channel = NexmarkStrings.HOT_CHANNELS[hot];
            url = NexmarkStrings.HOT_URLS[hot];
        } else {
            int n = random.nextInt(Nexmark.CHANNELS);
            channel = NexmarkStrings.CHANNEL_NAMES[n];
            url = NexmarkStrings.CHANNEL_URLS[n];
        }
        String extra = NexmarkStrings.nextExtra(random, BID_FIXED_BYTES, AVG_BID_BYTES);
        GenericRowData bid = new GenericRowData(7);
        bid.setField(0, auction);
        bid.setField(1, bidder);
        bid.setField(2, price);
        bid.setField(3, StringData.fromString(channel));
        bid.setField(4, StringData.fromString(url));
        bid.setField(5, TimestampData.fromEpochMillis(timestamp));
        bid.setField(6, StringData.fromString(extra));
        return bid;
    }
}
