package dev.gatun.bench.nexmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.bench.rows.RowShape;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.junit.jupiter.api.Test;

/** The Nexmark event stream against the benchmark's definition. */
class NexmarkGeneratorTest {
    private static final long BASE = RowShape.BASE_MILLIS;
    /** Far enough in that there are 1000 active people and 100 in-flight auctions behind every event. */
    private static final long START = 1_000_000;
    private static final int EVENTS = 200_000;
    private static final Pattern URL = Pattern.compile(
            "https://www\\.nexmark\\.com/([a-z_]{3,4})/([a-z_]{3,4})/([a-z_]{3,4})/item\\.htm\\?query=1(&channel_id=(-?\\d+))?");

    private final NexmarkGenerator generator = new NexmarkGenerator(BASE, Nexmark.DEFAULT_EVENTS_PER_SECOND);

    private static String str(RowData row, int pos) {
        return row.getString(pos).toString();
    }

    /** The UTF-8 bytes of a lazy string, null until something reads them. */
    private static Object binarySection(BinaryStringData s) throws ReflectiveOperationException {
        java.lang.reflect.Field f = org.apache.flink.table.data.binary.LazyBinaryFormat.class
                .getDeclaredField("binarySection");
        f.setAccessible(true);
        return f.get(s);
    }

    @Test
    void eachEventDependsOnItsIdAlone() {
        NexmarkGenerator other = new NexmarkGenerator(BASE, Nexmark.DEFAULT_EVENTS_PER_SECOND);
        long[] ids = {0, 1, 4, 49, 50, 1_000_003, 7_777_777, 123_456_789_012L};
        GenericRowData[] forward = new GenericRowData[ids.length];
        for (int i = 0; i < ids.length; i++) {
            forward[i] = generator.event(ids[i]);
        }
        for (int i = ids.length - 1; i >= 0; i--) { // another instance, another order: the same events
            assertEquals(forward[i], other.event(ids[i]), "event " + ids[i]);
            assertEquals(forward[i], generator.event(ids[i]), "event " + ids[i] + " again");
        }
        assertFalse(forward[5].equals(generator.event(ids[5] + 50)), "the next epoch's event differs");
    }

    @Test
    void kindsFollowTheProportionsInEveryEpochOf50() {
        for (long epoch : new long[] {0, 1, 17, 20_000, 3_000_000_000L}) {
            int[] counts = new int[3];
            for (int offset = 0; offset < Nexmark.TOTAL_PROPORTION; offset++) {
                long id = epoch * 50 + offset;
                int kind = generator.event(id).getInt(0);
                assertEquals(offset < 1 ? Nexmark.PERSON : offset < 4 ? Nexmark.AUCTION : Nexmark.BID, kind, "event " + id);
                counts[kind]++;
            }
            assertEquals(1, counts[Nexmark.PERSON]);
            assertEquals(3, counts[Nexmark.AUCTION]);
            assertEquals(46, counts[Nexmark.BID]);
        }
    }

    @Test
    void exactlyTheRowOfTheKindIsSetAndItsFieldsAreNotNull() {
        for (long id = 0; id < 5_000; id++) {
            GenericRowData event = generator.event(id);
            assertEquals(4, event.getArity());
            int kind = event.getInt(0);
            for (int pos = 1; pos <= 3; pos++) {
                assertEquals(pos != kind + 1, event.isNullAt(pos), "event " + id + " field " + pos);
            }
            RowData row = event.getRow(kind + 1, 0);
            int arity = switch (kind) {
                case Nexmark.PERSON -> Nexmark.PERSON_TYPE.getFieldCount();
                case Nexmark.AUCTION -> Nexmark.AUCTION_TYPE.getFieldCount();
                default -> Nexmark.BID_TYPE.getFieldCount();
            };
            assertEquals(arity, row.getArity());
            for (int f = 0; f < arity; f++) {
                assertFalse(row.isNullAt(f), "event " + id + " field " + f);
            }
        }
    }

    @Test
    void personAndAuctionIdsFollowTheLastBase0IdRules() {
        long lastAuction = -1;
        for (long id = 0; id < 50_000; id++) {
            GenericRowData event = generator.event(id);
            long epoch = id / 50;
            switch (event.getInt(0)) {
                case Nexmark.PERSON -> assertEquals(1000 + epoch, event.getRow(1, 8).getLong(0), "event " + id);
                case Nexmark.AUCTION -> {
                    long auction = event.getRow(2, 10).getLong(0);
                    assertEquals(1000 + epoch * 3 + (id % 50 - 1), auction, "event " + id);
                    assertEquals(lastAuction + 1, auction - 1000, "auctions are numbered without gaps");
                    lastAuction = auction - 1000;
                }
                default -> assertEquals(lastAuction, Nexmark.lastBase0AuctionId(id), "event " + id);
            }
            assertEquals(epoch, Nexmark.lastBase0PersonId(id));
        }
        assertEquals(-1, Nexmark.lastBase0AuctionId(0), "no auction before the first event");
        assertEquals(2, Nexmark.lastBase0AuctionId(50), "a person goes back to the previous epoch's last auction");
    }

    @Test
    void bidsAndAuctionsReferToHotOrRecentIds() {
        int bids = 0;
        int hotAuctions = 0;
        int hotBidders = 0;
        int auctions = 0;
        int hotSellers = 0;
        Map<Long, Integer> categories = new HashMap<>();
        for (long id = START; id < START + EVENTS; id++) {
            GenericRowData event = generator.event(id);
            long lastPerson = Nexmark.lastBase0PersonId(id);
            long lastAuction = Nexmark.lastBase0AuctionId(id);
            if (event.getInt(0) == Nexmark.BID) {
                bids++;
                RowData bid = event.getRow(3, 7);
                long auction = bid.getLong(0) - 1000;
                if (auction == (lastAuction / 100) * 100) {
                    hotAuctions++;
                } else {
                    assertTrue(auction >= lastAuction - 100 && auction <= lastAuction + 10, "auction " + auction);
                }
                long bidder = bid.getLong(1) - NexmarkGenerator.BIDDER_OFFSET;
                if (bidder == (lastPerson / 100) * 100 + 1) {
                    hotBidders++;
                } else {
                    assertTrue(bidder >= lastPerson + 1 - 1000 && bidder < lastPerson + 1 + 10, "bidder " + bidder);
                }
                long price = bid.getLong(2);
                assertTrue(price >= 100 && price <= 100_000_000L, "price " + price);
            } else if (event.getInt(0) == Nexmark.AUCTION) {
                auctions++;
                RowData auction = event.getRow(2, 10);
                long seller = auction.getLong(7) - 1000;
                if (seller == (lastPerson / 100) * 100) {
                    hotSellers++;
                } else {
                    assertTrue(seller >= lastPerson + 1 - 1000 && seller < lastPerson + 1 + 10, "seller " + seller);
                }
                categories.merge(auction.getLong(8), 1, Integer::sum);
                assertTrue(auction.getLong(4) > auction.getLong(3), "reserve above the initial bid");
                assertTrue(auction.getTimestamp(6, 3).getMillisecond() > auction.getTimestamp(5, 3).getMillisecond(),
                        "expires after it starts");
            }
        }
        // a random draw can hit the hot id by chance too, hence the slack above the ideal shares
        assertEquals(0.5, hotAuctions / (double) bids, 0.03, "hot auctions");
        assertEquals(0.75, hotBidders / (double) bids, 0.03, "hot bidders");
        assertEquals(0.75, hotSellers / (double) auctions, 0.03, "hot sellers");
        assertEquals(java.util.Set.of(10L, 11L, 12L, 13L, 14L), categories.keySet());
    }

    /** Sizes as the benchmark counts them: 8 bytes per number or time it counts, plus string lengths. */
    @Test
    void averageSizesAre200For500And100() {
        long[] sums = new long[3];
        int[] counts = new int[3];
        for (long id = START; id < START + EVENTS; id++) {
            GenericRowData event = generator.event(id);
            int kind = event.getInt(0);
            counts[kind]++;
            sums[kind] += switch (kind) {
                case Nexmark.PERSON -> {
                    RowData p = event.getRow(1, 8);
                    yield NexmarkGenerator.PERSON_FIXED_BYTES + str(p, 1).length() + str(p, 2).length()
                            + str(p, 3).length() + str(p, 4).length() + str(p, 5).length() + str(p, 7).length();
                }
                case Nexmark.AUCTION -> {
                    RowData a = event.getRow(2, 10);
                    yield NexmarkGenerator.AUCTION_FIXED_BYTES + str(a, 1).length() + str(a, 2).length()
                            + str(a, 9).length();
                }
                default -> NexmarkGenerator.BID_FIXED_BYTES + str(event.getRow(3, 7), 6).length();
            };
        }
        assertEquals(200, sums[Nexmark.PERSON] / (double) counts[Nexmark.PERSON], 200 * 0.03, "person");
        assertEquals(500, sums[Nexmark.AUCTION] / (double) counts[Nexmark.AUCTION], 500 * 0.03, "auction");
        assertEquals(100, sums[Nexmark.BID] / (double) counts[Nexmark.BID], 100 * 0.03, "bid");
    }

    @Test
    void personsUseTheFixedListsAndCardFormat() {
        for (long id = 0; id < 50 * 2_000; id += 50) {
            RowData p = generator.event(id).getRow(1, 8);
            String[] name = str(p, 1).split(" ");
            assertTrue(java.util.List.of(NexmarkStrings.FIRST_NAMES).contains(name[0]), str(p, 1));
            assertTrue(java.util.List.of(NexmarkStrings.LAST_NAMES).contains(name[1]), str(p, 1));
            assertTrue(str(p, 2).matches("[a-z ]*@[a-z ]*\\.com"), str(p, 2));
            assertTrue(str(p, 3).matches("\\d{4} \\d{4} \\d{4} \\d{4}"), str(p, 3));
            assertTrue(java.util.List.of(NexmarkStrings.US_CITIES).contains(str(p, 4)), str(p, 4));
            assertTrue(java.util.List.of(NexmarkStrings.US_STATES).contains(str(p, 5)), str(p, 5));
        }
    }

    @Test
    void channelsAndUrlsFollowTheBenchmarksRules() {
        int bids = 0;
        int hot = 0;
        for (long id = START; id < START + EVENTS; id++) {
            GenericRowData event = generator.event(id);
            if (event.getInt(0) != Nexmark.BID) {
                continue;
            }
            bids++;
            RowData bid = event.getRow(3, 7);
            String channel = str(bid, 3);
            String url = str(bid, 4);
            URI uri = URI.create(url); // parsable
            assertEquals("www.nexmark.com", uri.getHost());
            Matcher m = URL.matcher(url);
            assertTrue(m.matches(), url);
            int hotIndex = java.util.List.of(NexmarkStrings.HOT_CHANNELS).indexOf(channel);
            if (hotIndex >= 0) {
                hot++;
                assertEquals(NexmarkStrings.HOT_URLS[hotIndex], url, "a hot channel's fixed URL");
                assertNull(m.group(4), "hot URLs carry no channel_id");
            } else {
                assertTrue(channel.matches("channel-\\d{1,4}"), channel);
                int n = Integer.parseInt(channel.substring("channel-".length()));
                assertEquals(NexmarkStrings.CHANNEL_URLS[n], url, "channel-N always has the same URL");
                if (m.group(4) != null) {
                    assertEquals(String.valueOf(Math.abs(Integer.reverse(n))), m.group(5), url);
                }
            }
        }
        assertEquals(0.5, hot / (double) bids, 0.02, "half the bids are on hot channels");
        assertEquals(4, java.util.Set.of(NexmarkStrings.HOT_URLS).size(), "four distinct hot URLs");
        int withId = 0;
        for (int n = 0; n < Nexmark.CHANNELS; n++) {
            Matcher m = URL.matcher(NexmarkStrings.CHANNEL_URLS[n]);
            assertTrue(m.matches(), NexmarkStrings.CHANNEL_URLS[n]);
            if (m.group(4) != null) {
                withId++;
                assertEquals(String.valueOf(Math.abs(Integer.reverse(n))), m.group(5));
            }
        }
        assertEquals(0.9, withId / (double) Nexmark.CHANNELS, 0.02, "nine channel URLs in ten carry channel_id");
        assertTrue(NexmarkStrings.CHANNEL_URLS[1].endsWith("&channel_id=-2147483648")
                || !NexmarkStrings.CHANNEL_URLS[1].contains("channel_id"), "abs(MIN_VALUE) stays negative");
    }

    @Test
    void timestampsFollowTheEventRate() {
        assertEquals(BASE, generator.timestamp(0));
        assertEquals(BASE, generator.timestamp(9_999), "10,000 events share a millisecond at 10M events/s");
        assertEquals(BASE + 1, generator.timestamp(10_000));
        assertEquals(BASE + 1_000, generator.timestamp(10_000_000));
        NexmarkGenerator slow = new NexmarkGenerator(BASE, 1_000);
        assertEquals(BASE + 7, slow.timestamp(7));
        GenericRowData bid = generator.event(123_456_789);
        assertEquals(BASE + 12_345, bid.getRow(3, 7).getTimestamp(5, 3).getMillisecond());
        GenericRowData person = generator.event(123_456_750);
        assertEquals(BASE + 12_345, person.getRow(1, 8).getTimestamp(6, 3).getMillisecond());
        assertThrows(IllegalArgumentException.class, () -> new NexmarkGenerator(BASE, 0));
    }

    @Test
    void everyEventIsAFreshObjectWithLazyStrings() throws ReflectiveOperationException {
        for (long id : new long[] {50, 51, 60}) { // a person, an auction, a bid
            GenericRowData a = generator.event(id);
            GenericRowData b = generator.event(id);
            assertNotSame(a, b);
            int pos = a.getInt(0) + 1;
            GenericRowData rowA = (GenericRowData) a.getField(pos);
            GenericRowData rowB = (GenericRowData) b.getField(pos);
            assertNotSame(rowA, rowB);
            for (int f = 0; f < rowA.getArity(); f++) {
                Object value = rowA.getField(f);
                if (value instanceof StringData s) {
                    assertNotSame(s, rowB.getField(f), "field " + f);
                    BinaryStringData lazy = assertInstanceOf(BinaryStringData.class, s);
                    assertNotNull(lazy.getJavaObject(), "built from a Java string");
                    assertNull(binarySection(lazy), "not encoded to UTF-8 yet");
                } else if (!(value instanceof Long)) {
                    assertNotSame(value, rowB.getField(f), "field " + f);
                }
            }
        }
    }
}
