package dev.gatun.transpose;

/**
 * A row could not be written into (or read from) an Arrow batch. The message names the field and
 * the value or problem; the cause is the original failure (a throwing getter, an out-of-range
 * value, an {@code OutOfNativeMemoryException}, ...).
 */
public final class TransposeException extends RuntimeException {
    private final String field;

    public TransposeException(String message, String field, Throwable cause) {
        super(message, cause);
        this.field = field;
    }

    /** The path of the field that failed ({@code b.c}, {@code tags[3].name}), or empty. */
    public String field() {
        return field;
    }
}
