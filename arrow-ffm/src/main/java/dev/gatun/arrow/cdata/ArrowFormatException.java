package dev.gatun.arrow.cdata;

/** A C Data struct (or format string) that is invalid or not supported; names the field and the problem. */
public final class ArrowFormatException extends RuntimeException {
    private final String where;
    private final String problem;

    public ArrowFormatException(String where, String problem) {
        super(where + ": " + problem);
        this.where = where;
        this.problem = problem;
    }

    /** Which struct field, e.g. {@code array.children[1].null_count}. */
    public String where() {
        return where;
    }

    public String problem() {
        return problem;
    }
}
