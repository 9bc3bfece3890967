package dev.gatun.planner.rewrite;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects the planner's decisions while a query is optimized on this thread, so that
 * {@code Gatun.explain} can print the reason for every Calc that stayed on Flink.
 */
public final class PlanReport {
    private static final ThreadLocal<PlanReport> CURRENT = new ThreadLocal<>();

    private final List<CalcDecision> decisions = new ArrayList<>();

    /** Starts collecting on this thread; close it with {@link #stop()}. */
    public static PlanReport start() {
        PlanReport report = new PlanReport();
        CURRENT.set(report);
        return report;
    }

    public void stop() {
        if (CURRENT.get() == this) {
            CURRENT.remove();
        }
    }

    static void record(CalcDecision decision) {
        PlanReport report = CURRENT.get();
        if (report != null) {
            report.decisions.add(decision);
        }
    }

    public List<CalcDecision> decisions() {
        return List.copyOf(decisions);
    }
}
