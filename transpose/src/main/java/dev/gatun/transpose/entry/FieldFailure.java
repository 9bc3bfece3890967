package dev.gatun.transpose.entry;

import java.util.ArrayDeque;

/**
 * Carries a failure from the writer where it happened up to {@link BatchWriter}, collecting the
 * field path on the way ({@code tags[3].name}); the original exception is the cause.
 */
final class FieldFailure extends RuntimeException {
    private final ArrayDeque<String> path = new ArrayDeque<>();

    private FieldFailure(RuntimeException cause) {
        super(null, cause, false, false);
    }

    /** Prepends {@code segment} (a field name, or {@code [i]} for an element) to the failure's path. */
    static FieldFailure at(String segment, RuntimeException e) {
        FieldFailure failure = e instanceof FieldFailure f ? f : new FieldFailure(e);
        failure.path.addFirst(segment);
        return failure;
    }

    String path() {
        StringBuilder sb = new StringBuilder();
        for (String segment : path) {
            if (!sb.isEmpty() && !segment.startsWith("[")) {
                sb.append('.');
            }
            sb.append(segment);
        }
        return sb.toString();
    }

    RuntimeException original() {
        return (RuntimeException) getCause();
    }
}
