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

    private final PlanReport outer;

    private PlanReport(PlanReport outer) {
        this.outer = outer;
    }

    /**
     * Starts collecting on this thread; close it with {@link #stop()}. A report started while
     * another one collects nests in it: both see the decisions until the inner one stops.
     */
    public static PlanReport start() {
        PlanReport report = new PlanReport(CURRENT.get());
        CURRENT.set(report);
        return report;
    }

    public void stop() {
        if (CURRENT.get() == this) {
            if (outer == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(outer);
            }
        }
    }

    static void record(CalcDecision decision) {
        for (PlanReport report = CURRENT.get(); report != null; report = report.outer) {
            report.decisions.add(decision);
        }
    }

    public List<CalcDecision> decisions() {
        return List.copyOf(decisions);
    }
}
