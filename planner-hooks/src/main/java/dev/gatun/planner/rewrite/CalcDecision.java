package dev.gatun.planner.rewrite;

import dev.gatun.planner.runtime.NativeCalcSpec;

/**
 * What the planner decided for one Calc: native (with its spec) or stock (with the reason).
 *
 * @param calc the Calc as Flink's EXPLAIN prints it
 */
public record CalcDecision(String calc, NativeCalcSpec spec, String reason) {
    public static CalcDecision nativeCalc(String calc, NativeCalcSpec spec) {
        return new CalcDecision(calc, spec, null);
    }

    public static CalcDecision stock(String calc, String reason) {
        return new CalcDecision(calc, null, reason);
    }

    public boolean isNative() {
        return spec != null;
    }

    @Override
    public String toString() {
        return (isNative() ? "native: " : "stock (" + reason + "): ") + calc;
    }
}
