package dev.gatun.arrow.types;

/** Arrow time units; the letter is the one used in C Data format strings. */
public enum TimeUnit {
    SECOND('s'),
    MILLISECOND('m'),
    MICROSECOND('u'),
    NANOSECOND('n');

    private final char letter;

    TimeUnit(char letter) {
        this.letter = letter;
    }

    public char letter() {
        return letter;
    }

    /** The unit for a format-string letter, or null. */
    public static TimeUnit ofLetter(char c) {
        for (TimeUnit u : values()) {
            if (u.letter == c) {
                return u;
            }
        }
        return null;
    }
}
