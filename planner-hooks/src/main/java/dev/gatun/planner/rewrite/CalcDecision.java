package dev.gatun.planner.rewrite;

import dev.gatun.planner.runtime.NativeCalcSpec;
import dev.gatun.planner.substrait.NotAdmittedException;

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

    /**
     * Native with what {@code admission} builds, or stock with the reason it throws. Any other failure
     * of the admission (a translator bug) keeps {@code what} stock too: a bug must cost the query its
     * native island, never the query itself.
     */
    static CalcDecision decide(String calc, String what, java.util.function.Supplier<NativeCalcSpec> admission) {
        try {
            return nativeCalc(calc, admission.get());
        } catch (NotAdmittedException e) {
            return stock(calc, e.getMessage());
        } catch (RuntimeException e) {
            return stock(calc, "Gatun could not translate this " + what + " (" + e + ")");
        }
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
