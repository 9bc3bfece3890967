package dev.gatun.bench.nexmark;

import java.util.Random;

/**
 * The strings of Nexmark events: the benchmark's fixed lists, and pools built once per JVM
 * wherever the benchmark caches (four-digit credit-card groups, the padding text {@code extra}
 * is cut from, the hot URLs, each {@code channel-N} with its URL). Every pool is deterministic:
 * where the benchmark draws a pool from an unseeded {@code Random} (URLs, the padding text), it
 * is seeded here, so every JVM and every parallel reader sees the same events.
 */
public final class NexmarkStrings {
    public static final String[] US_STATES = {"AZ", "CA", "ID", "OR", "WA", "WY"};
    public static final String[] US_CITIES = {"Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland", "Bend",
        "Redmond", "Seattle", "Kent", "Cheyenne"};
    public static final String[] FIRST_NAMES = {"Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate", "Julie",
        "Sarah", "Deiter", "Walter"};
    public static final String[] LAST_NAMES = {"Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton", "Smith",
        "Jones", "Noris"};
    public static final String[] HOT_CHANNELS = {"Google", "Facebook", "Baidu", "Apple"};
    public static final String URL_PREFIX = "https://www.nexmark.com/";
    public static final String URL_SUFFIX = "item.htm?query=1";

    /** Shortest random string ({@link #nextString}). */
    private static final int MIN_STRING_LENGTH = 3;
    /** The padding text: 1 MiB of lowercase letters; {@code extra} is a substring at a random offset. */
    private static final int PADDING_LENGTH = 1 << 20;
    private static final long PADDING_SEED = 0x6E65_786D_6172_6BL;

    /** "First Last" for every pair, indexed {@code first * LAST_NAMES.length + last}. */
    private static final String[] FULL_NAMES = fullNames();
    private static final String[] CARD_GROUPS = cardGroups();
    private static final String PADDING = padding();
    /** The URL of each hot channel, from a {@code Random} seeded with {@code -1 - i}. */
    static final String[] HOT_URLS = hotUrls();
    static final String[] CHANNEL_NAMES = new String[Nexmark.CHANNELS];
    /** The URL of {@code channel-N}, from a {@code Random} seeded with {@link #channelSeed(int)}. */
    static final String[] CHANNEL_URLS = new String[Nexmark.CHANNELS];

    static {
        for (int n = 0; n < Nexmark.CHANNELS; n++) {
            CHANNEL_NAMES[n] = "channel-" + n;
            CHANNEL_URLS[n] = channelUrl(n);
        }
    }

    private NexmarkStrings() {}

    /**
     * A string of {@code 3 + nextInt(maxLength - 3)} characters, each {@code special} one time in
     * 13 and a random lowercase letter otherwise, trimmed (which drops leading and trailing
     * spaces when {@code special} is a space).
     */
    public static String nextString(Random random, int maxLength, char special) {
        int length = MIN_STRING_LENGTH + random.nextInt(maxLength - MIN_STRING_LENGTH);
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = random.nextInt(13) == 0 ? special : (char) ('a' + random.nextInt(26));
        }
        return new String(chars).trim();
    }

    /**
     * Padding such that {@code currentSize} plus its length averages {@code averageSize}: a
     * length uniform within ±20 % of the gap (empty when the event is already larger), cut from
     * the padding text at a random offset.
     */
    public static String nextExtra(Random random, int currentSize, int averageSize) {
        if (currentSize > averageSize) {
            return "";
        }
        int gap = averageSize - currentSize;
        int delta = (int) Math.round(gap * 0.2);
        int length = gap - delta + (delta == 0 ? 0 : random.nextInt(2 * delta));
        int offset = random.nextInt(PADDING_LENGTH - length);
        return PADDING.substring(offset, offset + length);
    }

    /** A first and a last name, drawn in that order. */
    static String personName(Random random) {
        int first = random.nextInt(FIRST_NAMES.length);
        return FULL_NAMES[first * LAST_NAMES.length + random.nextInt(LAST_NAMES.length)];
    }

    /** {@code <up to 6 letters>@<up to 4 letters>.com}. */
    static String email(Random random) {
        return nextString(random, 7, ' ') + "@" + nextString(random, 5, ' ') + ".com";
    }

    /** Four random groups of four digits separated by spaces: {@code 0042 9313 0007 4511}. */
    static String creditCard(Random random) {
        StringBuilder card = new StringBuilder(19);
        for (int i = 0; i < 4; i++) {
            if (i > 0) {
                card.append(' ');
            }
            card.append(CARD_GROUPS[random.nextInt(CARD_GROUPS.length)]);
        }
        return card.toString();
    }

    static String city(Random random) {
        return US_CITIES[random.nextInt(US_CITIES.length)];
    }

    static String state(Random random) {
        return US_STATES[random.nextInt(US_STATES.length)];
    }

    /**
     * The seed of {@code channel-N}'s URL: {@code N} mixed as event ids are
     * ({@link NexmarkGenerator#seed}), so neighbouring channels' URLs are independent.
     */
    static long channelSeed(int n) {
        return NexmarkGenerator.seed(n);
    }

    /** {@code https://www.nexmark.com/<a>/<b>/<c>/item.htm?query=1}, each directory 3 or 4 of [a-z_]. */
    private static String baseUrl(Random random) {
        return URL_PREFIX + nextString(random, 5, '_') + '/' + nextString(random, 5, '_') + '/'
                + nextString(random, 5, '_') + '/' + URL_SUFFIX;
    }

    /**
     * The base URL, then, nine times in ten ({@code nextInt(10) > 0} after the URL's draws),
     * {@code &channel_id=<abs(Integer.reverse(N))>}. ({@code Math.abs} of
     * {@code Integer.MIN_VALUE} stays negative, so {@code channel-1} carries {@code -2147483648},
     * as in the benchmark.)
     */
    private static String channelUrl(int n) {
        Random random = new Random(channelSeed(n));
        String url = baseUrl(random);
        return random.nextInt(10) > 0 ? url + "&channel_id=" + Math.abs(Integer.reverse(n)) : url;
    }

    private static String[] hotUrls() {
        String[] urls = new String[HOT_CHANNELS.length];
        for (int i = 0; i < urls.length; i++) {
            urls[i] = baseUrl(new Random(-1L - i));
        }
        return urls;
    }

    private static String[] fullNames() {
        String[] names = new String[FIRST_NAMES.length * LAST_NAMES.length];
        for (int f = 0; f < FIRST_NAMES.length; f++) {
            for (int l = 0; l < LAST_NAMES.length; l++) {
                names[f * LAST_NAMES.length + l] = FIRST_NAMES[f] + " " + LAST_NAMES[l];
            }
        }
        return names;
    }

    private static String[] cardGroups() {
        String[] groups = new String[10_000];
        for (int i = 0; i < groups.length; i++) {
            groups[i] = String.format(java.util.Locale.ROOT, "%04d", i);
        }
        return groups;
    }

    private static String padding() {
        Random random = new Random(PADDING_SEED);
        char[] chars = new char[PADDING_LENGTH];
        for (int i = 0; i < chars.length; i++) {
            chars[i] = (char) ('a' + random.nextInt(26));
        }
        return new String(chars);
    }
}
