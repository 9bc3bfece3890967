package dev.gatun.arrow.batch;

/**
 * Life of a batch. Written: {@code WRITING → SEALED → EXPORTED → RELEASED} (or closed to
 * {@code RELEASED} before export). Imported: {@code IMPORTED → RELEASED}.
 */
public enum BatchState {
    /** Buffers are being written by the owner thread. */
    WRITING,
    /** Row count fixed, null counts exact, buffers read-only; may be read or exported. */
    SEALED,
    /** Handed to a C Data consumer: Java access is revoked; the consumer's release frees it. */
    EXPORTED,
    /** Wraps a producer's buffers, read-only; closing calls the producer's release. */
    IMPORTED,
    /** Memory freed (or, for imported batches, given back to the producer). */
    RELEASED
}
