package dev.gatun.planner.rewrite;

import dev.gatun.planner.runtime.NativeCalcSpec;

/**
 * What the planner decided for one Calc: native (with its spec) or stock (with the reason).
 *
 * @param calc the Calc as Flink's EXPLAIN prints it
 * @param note why a bigger island was not formed (e.g. not fused with a WatermarkAssigner), or null
 */
public record CalcDecision(String calc, NativeCalcSpec spec, String reason, String note) {
    public static CalcDecision nativeCalc(String calc, NativeCalcSpec spec) {
        return new CalcDecision(calc, spec, null, null);
    }

    public static CalcDecision stock(String calc, String reason) {
        return new CalcDecision(calc, null, reason, null);
    }

    /** This decision with {@code note} (null keeps it as it is). */
    public CalcDecision withNote(String note) {
        return note == null ? this : new CalcDecision(calc, spec, reason, note);
    }

    public boolean isNative() {
        return spec != null;
    }

    @Override
    public String toString() {
        return (isNative() ? "native: " : "stock (" + reason + "): ") + calc
                + (note == null ? "" : "\n  (" + note + ")");
    }
}
