package dev.gatun.bench.rows;

import java.util.function.IntFunction;

/**
 * Fixed pools of ASCII text with Nexmark-like sizes, built once from a constant seed. Rows pick
 * from the pools by hash, so generating a row costs a lookup, not string building: the source
 * must stay cheap next to the operators it feeds, for stock and native runs alike.
 */
public final class TextPool {
    private static final long POOL_SEED = 0x6761_7475_6EL;
    private static final int SIZE = 4096;
    private static final String LETTERS = "abcdefghijklmnopqrstuvwxyz";

    /** The channels Nexmark favours; the rest are {@code chan-NNNN}. */
    public static final String[] KNOWN_CHANNELS = {"Google", "Facebook", "Baidu", "Apple"};
    public static final String[] STATES = {"AZ", "CA", "ID", "OR", "WA", "WY"};
    public static final String[] CITIES = {"Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland",
        "Bend", "Redmond", "Seattle", "Kent", "Cheyenne"};

    private static final String[] CHANNELS = pool(i -> "chan-" + (1000 + Mix.below(random(i, 0), 9000)));
    private static final String[] URLS = pool(TextPool::url);
    private static final String[] EXTRAS = pool(i -> text(i, 1, 0, 200));
    private static final String[] PAYLOADS_200 = pool(i -> text(i, 2, 200, 200));
    private static final String[] SHORT = pool(i -> text(i, 3, 3, 8));
    private static final String[] MEDIUM = pool(i -> text(i, 4, 20, 40));
    private static final String[] NAMES = pool(i -> capitalized(i, 5, 4, 8) + " " + capitalized(i, 6, 5, 10));
    private static final String[] WORDS = pool(i -> text(i, 7, 10, 30));
    private static final String[] DESCRIPTIONS = pool(i -> text(i, 8, 20, 100));
    private static final String[] AROUND_40 = pool(i -> text(i, 9, 32, 48));

    private TextPool() {}

    /** Nexmark's channel: one of the four known channels 90% of the time, else {@code chan-NNNN} (5–9 chars). */
    public static String channel(long random) {
        return Mix.below(random, 10) < 9
                ? KNOWN_CHANNELS[Mix.below(random >>> 8, KNOWN_CHANNELS.length)]
                : CHANNELS[Mix.below(random >>> 8, SIZE)];
    }

    /** A Nexmark-style item URL, 80–100 chars. */
    public static String url(long random) {
        return URLS[Mix.below(random, SIZE)];
    }

    /** Nexmark's padding field, 0–200 chars. */
    public static String extra(long random) {
        return EXTRAS[Mix.below(random, SIZE)];
    }

    /** Exactly 200 ASCII chars (200 bytes of UTF-8). */
    public static String payload200(long random) {
        return PAYLOADS_200[Mix.below(random, SIZE)];
    }

    /** 3–8 chars: fits a binary row's inline 7-byte slot about two times in three. */
    public static String shortText(long random) {
        return SHORT[Mix.below(random, SIZE)];
    }

    /** 20–40 chars. */
    public static String mediumText(long random) {
        return MEDIUM[Mix.below(random, SIZE)];
    }

    /** 32–48 chars, 40 on average. */
    public static String around40(long random) {
        return AROUND_40[Mix.below(random, SIZE)];
    }

    /** A person's name, 10–19 chars. */
    public static String name(long random) {
        return NAMES[Mix.below(random, SIZE)];
    }

    /** An item name, 10–30 chars. */
    public static String words(long random) {
        return WORDS[Mix.below(random, SIZE)];
    }

    /** An item description, 20–100 chars. */
    public static String description(long random) {
        return DESCRIPTIONS[Mix.below(random, SIZE)];
    }

    private static String[] pool(IntFunction<String> make) {
        String[] pool = new String[SIZE];
        for (int i = 0; i < SIZE; i++) {
            pool[i] = make.apply(i);
        }
        return pool;
    }

    private static long random(int entry, int salt) {
        return Mix.of(POOL_SEED, entry, salt);
    }

    private static String url(int entry) {
        int length = Mix.between(random(entry, 10), 80, 100);
        StringBuilder url = new StringBuilder(length).append("https://www.nexmark.com/");
        for (int part = 0; part < 3; part++) {
            appendLetters(url, Mix.of(POOL_SEED, entry, 11 + part), Mix.between(random(entry, 14 + part), 5, 8));
            url.append('/');
        }
        url.append("item.htm?query=1&channel_id=");
        long digits = random(entry, 17);
        while (url.length() < length) {
            url.append((char) ('0' + Mix.below(digits, 10)));
            digits = Mix.of(POOL_SEED, digits, 18);
        }
        url.setLength(length);
        return url.toString();
    }

    private static String text(int entry, int salt, int minLength, int maxLength) {
        int length = Mix.between(random(entry, 100 + salt), minLength, maxLength);
        StringBuilder text = new StringBuilder(length);
        appendLetters(text, random(entry, 200 + salt), length);
        return text.toString();
    }

    private static String capitalized(int entry, int salt, int minLength, int maxLength) {
        String word = text(entry, salt, minLength, maxLength);
        return Character.toUpperCase(word.charAt(0)) + word.substring(1);
    }

    private static void appendLetters(StringBuilder out, long random, int count) {
        for (int i = 0; i < count; i++) {
            out.append(LETTERS.charAt(Mix.below(Mix.of(random, i, 0), LETTERS.length())));
        }
    }
}
