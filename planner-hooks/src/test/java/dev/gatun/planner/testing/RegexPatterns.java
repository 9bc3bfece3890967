package dev.gatun.planner.testing;

import java.util.List;
import java.util.Random;

/**
 * Random Java regular expressions over the constructs Gatun translates (src/udf/java_regex.rs):
 * literals and escapes, classes, {@code .}, {@code \d \w \s} and complements, groups, alternation,
 * greedy and lazy quantifiers, {@code ^ $ \A \z \Z}; with a few constructs on the edge of the subset
 * (a repeated sub-pattern that can match empty, a capturing group inside a repeated group, a
 * {@code $} before more pattern, a class excluding a supplementary character) that Gatun must refuse
 * rather than answer differently. And random inputs over the characters those patterns test:
 * Java's line terminators, {@code \r\n} at the end, supplementary characters, metacharacters.
 */
public final class RegexPatterns {
    private static final String[] LITERALS = {"a", "b", "c", "x", "a", "b", "&", "=", "/", "é", "😀", "0", "9", " ", "_",
        "-", "#", "]", "}", ",", "\\.", "\\$", "\\^", "\\(", "\\)", "\\[", "\\]", "\\{", "\\}", "\\|", "\\?", "\\*",
        "\\+", "\\\\", "\\-", "\\/", "\\&", "\\é", "\\t", "\\n", "\\r", "\\f", "\\e", "\\a", "\\x61", "\\x{1F600}",
        "\\u00e9", "\\uD83D\\uDE00", "\\0141", "\\07", "\\cJ", "\\x{2028}"};
    private static final String[] SETS = {".", ".", "\\d", "\\D", "\\w", "\\W", "\\s", "\\S"};
    private static final String[] CLASS_ITEMS = {"a", "b", "c", "x", "a-c", "b-x", "0-9", "&", "=", "/", "é", "😀",
        "\\d", "\\w", "\\s", "\\D", "\\W", "\\S", "\\]", "\\[", "\\\\", "\\-", "\\n", "\\r", "\\x{85}", "\\u2028",
        "^", ".", "$", "(", "|", "?", "*", "+", "{", "}", "!-/", "\\x{1F600}-\\x{1F64F}", " -~", "\\t-\\r"};
    /** Characters the inputs are made of. */
    private static final String[] INPUT = {"a", "b", "c", "x", "a", "b", "c", "&", "=", "/", "é", "😀", "😁", "0", "9",
        " ", "_", "-", ".", "$", "^", "(", ")", "[", "]", "{", "}", "|", "?", "*", "+", "\\", "\t", "\n", "\r",
        "\u000B", "\f", "\u001B", "\u0007", "\u0085", "\u2028", "\u2029", "\u3000", "A", "Z", "#", ",", "~", "\u0000",
        "ab", "abc", "&x=", "channel_id=", "\r\n"};

    private final Random random;

    public RegexPatterns(long seed) {
        random = new Random(seed);
    }

    /** Patterns worth always checking, Nexmark's among them. */
    public static List<String> fixed() {
        return List.of("(&|^)channel_id=([^&]*)", "channel_id=(\\d+)", "^https?://([^/]+)/(.*)$", "([a-z]+)_([a-z]+)",
                "(a|ab)(c|bcd)(d*)", "a.c", "(.)😀", "[^a]+", "\\w+\\s*=\\s*(\\S*)", "(a)|b", "x*", "", "a$", "(a)$",
                "($)", "a\\r$", ".$", "\\Aa\\z", "(b\\Z)", "a{2,3}?", "(ab)+", "(a|b)*c", "(?:(a)|b)?c", "[]a]", "[a-]",
                "[\\d-z]+", "[^\\n\\r]+", "\\x{1F600}+", "😀{2}", "[😀-😁]", "é|😀|\\.", "\\0101\\x41\\u00e9", "a|", "|a",
                "(|a)b", "((a)|(b))c", "a{0}", "(a){0}b", "(?:ab){2}", "a+?b", "(a+?)(b*)", "[\\s\\S]", "[\\W\\d]",
                "\\cJ", "\\$\\^\\.");
    }

    public String pattern() {
        String p = alternatives(0);
        int end = random.nextInt(20);
        return end == 0 ? p + "$" : end == 1 ? p + "\\z" : end == 2 ? p + "\\Z" : end == 3 ? "(" + p + ")$" : p;
    }

    private String alternatives(int depth) {
        StringBuilder sb = new StringBuilder(sequence(depth));
        while (random.nextInt(5) == 0) {
            sb.append('|').append(sequence(depth));
        }
        return sb.toString();
    }

    private String sequence(int depth) {
        StringBuilder sb = new StringBuilder();
        int n = 1 + random.nextInt(4);
        for (int i = 0; i < n; i++) {
            String atom = atom(depth);
            sb.append(atom);
            if (!atom.startsWith("^") && !atom.equals("$") && random.nextInt(3) == 0) {
                sb.append(quantifier());
            }
        }
        return sb.toString();
    }

    private String atom(int depth) {
        int k = random.nextInt(100);
        if (k < 45) {
            return LITERALS[random.nextInt(LITERALS.length)];
        } else if (k < 60) {
            return SETS[random.nextInt(SETS.length)];
        } else if (k < 75) {
            return charClass();
        } else if (k < 93 && depth < 3) {
            return (random.nextInt(3) == 0 ? "(?:" : "(") + alternatives(depth + 1) + ")";
        } else if (k < 96) {
            return "^";
        } else if (k < 98) {
            return "\\A";
        }
        return "$";
    }

    private String charClass() {
        StringBuilder sb = new StringBuilder("[");
        if (random.nextInt(3) == 0) {
            sb.append('^');
        }
        if (random.nextInt(10) == 0) {
            sb.append(']');
        }
        int n = 1 + random.nextInt(4);
        for (int i = 0; i < n; i++) {
            String item = CLASS_ITEMS[random.nextInt(CLASS_ITEMS.length)];
            if (i == 0 && item.equals("^")) {
                item = "\\^";
            }
            sb.append(item);
        }
        if (random.nextInt(8) == 0) {
            sb.append('-');
        }
        return sb.append(']').toString();
    }

    private String quantifier() {
        int n = random.nextInt(3);
        int m = n + random.nextInt(3);
        String q = switch (random.nextInt(6)) {
            case 0 -> "?";
            case 1 -> "*";
            case 2 -> "+";
            case 3 -> "{" + n + "}";
            case 4 -> "{" + n + ",}";
            default -> "{" + n + "," + m + "}";
        };
        return random.nextInt(3) == 0 ? q + "?" : q;
    }

    /** A random input, sometimes ending with a line terminator or {@code \r\n}. */
    public String input() {
        StringBuilder sb = new StringBuilder();
        int n = random.nextInt(12);
        for (int i = 0; i < n; i++) {
            sb.append(INPUT[random.nextInt(INPUT.length)]);
        }
        switch (random.nextInt(8)) {
            case 0 -> sb.append("\r\n");
            case 1 -> sb.append('\n');
            case 2 -> sb.append('\u2028');
            default -> { }
        }
        return sb.toString();
    }

    public Random random() {
        return random;
    }
}
