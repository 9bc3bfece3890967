package dev.gatun.ffm;

import static dev.gatun.ffm.internal.gatun_h.GATUN_ERR_ARROW;
import static dev.gatun.ffm.internal.gatun_h.GATUN_ERR_EXECUTION;
import static dev.gatun.ffm.internal.gatun_h.GATUN_ERR_INVALID_ARGUMENT;
import static dev.gatun.ffm.internal.gatun_h.GATUN_ERR_PANIC;
import static dev.gatun.ffm.internal.gatun_h.GATUN_ERR_PLAN;
import static dev.gatun.ffm.internal.gatun_h.GATUN_OK;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/** The one place where native status codes become exceptions. */
final class NativeStatus {
    private NativeStatus() {}

    /** Throws the exception for {@code status} unless it is {@code GATUN_OK}. */
    static void check(int status, MemorySegment errBuf, String function) {
        if (status != GATUN_OK()) {
            throw exception(status, function, message(errBuf));
        }
    }

    static NativeException exception(int status, String function, String message) {
        if (status == GATUN_ERR_INVALID_ARGUMENT()) {
            return new NativeInvalidArgumentException(status, function, message);
        } else if (status == GATUN_ERR_ARROW()) {
            return new NativeArrowException(status, function, message);
        } else if (status == GATUN_ERR_PLAN()) {
            return new NativePlanException(status, function, message);
        } else if (status == GATUN_ERR_EXECUTION()) {
            return new NativeExecutionException(status, function, message);
        } else if (status == GATUN_ERR_PANIC()) {
            return new NativePanicException(status, function, message);
        }
        return new NativeException(status, function, message);
    }

    static String name(int status) {
        if (status == GATUN_OK()) return "GATUN_OK";
        if (status == GATUN_ERR_INVALID_ARGUMENT()) return "GATUN_ERR_INVALID_ARGUMENT";
        if (status == GATUN_ERR_ARROW()) return "GATUN_ERR_ARROW";
        if (status == GATUN_ERR_PLAN()) return "GATUN_ERR_PLAN";
        if (status == GATUN_ERR_EXECUTION()) return "GATUN_ERR_EXECUTION";
        if (status == GATUN_ERR_PANIC()) return "GATUN_ERR_PANIC";
        return "unknown status " + status;
    }

    /** The NUL-terminated UTF-8 message in {@code errBuf} (the native side always terminates it). */
    static String message(MemorySegment errBuf) {
        long end = 0;
        while (end < errBuf.byteSize() && errBuf.get(ValueLayout.JAVA_BYTE, end) != 0) {
            end++;
        }
        if (end == 0) {
            return "(no message)";
        }
        return new String(errBuf.asSlice(0, end).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
    }
}
