package dev.gatun.planner.substrait;

/** Why a Calc (or one of its expressions) cannot run natively; the message is shown in EXPLAIN. */
public final class NotAdmittedException extends RuntimeException {
    public NotAdmittedException(String reason) {
        super(reason, null, false, false);
    }
}
