package dev.gatun.bench.e2e;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Gatun's decision for every Calc of a plan, read from the {@code == Gatun ==} section that
 * {@code Gatun.explain} appends ({@code native: Calc(...)} or {@code stock (reason): Calc(...)}).
 *
 * <p>The Calcs of the query are told apart from a Calc that feeds a WatermarkAssigner: that one
 * computes the table's computed columns before its watermark (Nexmark's {@code dateTime}), is
 * part of the table, not of the query, and runs the same on both engines when it stays stock.
 *
 * @param nativeCalcs the query's Calcs that run natively
 * @param stockCalcs the query's Calcs that stay on Flink, each as {@code (reason): Calc(...)}
 * @param watermarkInputCalcs Calcs under a WatermarkAssigner, with their decision
 *     ({@code native: ...} or {@code stock (reason): ...})
 */
public record PlanDecisions(List<String> nativeCalcs, List<String> stockCalcs, List<String> watermarkInputCalcs) {
    private static final String SECTION = "== Gatun ==";
    private static final String EXECUTION_PLAN = "== Optimized Execution Plan ==";
    private static final Pattern REASON_END = Pattern.compile("\\): [A-Za-z]+\\(");

    public static PlanDecisions of(String plan) {
        Set<String> underWatermark = watermarkInputs(plan);
        List<String> nativeCalcs = new ArrayList<>();
        List<String> stockCalcs = new ArrayList<>();
        List<String> watermarkInputs = new ArrayList<>();
        int section = plan.indexOf(SECTION);
        if (section >= 0) {
            for (String line : plan.substring(section + SECTION.length()).strip().split("\n")) {
                String calc;
                if (line.startsWith("native: ")) {
                    calc = line.substring("native: ".length());
                } else if (line.startsWith("stock (")) {
                    calc = calcOf(line.substring("stock ".length()));
                } else {
                    continue;
                }
                if (underWatermark.contains(calc)) {
                    watermarkInputs.add(line);
                } else if (line.startsWith("native: ")) {
                    nativeCalcs.add(calc);
                } else {
                    stockCalcs.add(line.substring("stock ".length()));
                }
            }
        }
        return new PlanDecisions(List.copyOf(nativeCalcs), List.copyOf(stockCalcs), List.copyOf(watermarkInputs));
    }

    /** Whether every Calc of the query runs natively (and there is at least one). */
    public boolean allNative() {
        return !nativeCalcs.isEmpty() && stockCalcs.isEmpty();
    }

    /** Whether at least one of the query's islands (a Calc or an aggregate) runs natively. */
    public boolean anyNative() {
        return !nativeCalcs.isEmpty();
    }

    /**
     * One line: {@code native}, {@code stock (reason; ...)} or {@code partly native (n of m Calcs;
     * stock: reason; ...)} for the query's Calcs, then what happened to a Calc before a
     * WatermarkAssigner, if any.
     */
    public String summary() {
        String query = querySummary();
        for (String w : watermarkInputCalcs) {
            query += w.startsWith("native: ") ? "; the computed-column Calc before the WatermarkAssigner: native"
                    : "; the computed-column Calc before the WatermarkAssigner stays stock ("
                            + reason(w.substring("stock ".length())) + ")";
        }
        return query;
    }

    /** The first part of {@link #summary}: the query's own Calcs only. */
    public String querySummary() {
        String query;
        if (nativeCalcs.isEmpty() && stockCalcs.isEmpty()) {
            query = "stock (no Calc decision in the plan)";
        } else if (stockCalcs.isEmpty()) {
            query = "native";
        } else {
            String reasons = String.join("; ", stockCalcs.stream().map(PlanDecisions::reason).distinct().toList());
            query = nativeCalcs.isEmpty() ? "stock (" + reasons + ")"
                    : "partly native (" + nativeCalcs.size() + " of " + (nativeCalcs.size() + stockCalcs.size())
                            + " Calcs; stock: " + reasons + ")";
        }
        return query;
    }

    /** {@code (reason): Calc(...)} → {@code reason}: up to the first {@code "): "} followed by a node name and {@code (}. */
    static String reason(String stockCalc) {
        Matcher m = REASON_END.matcher(stockCalc);
        return m.find() ? stockCalc.substring(1, m.start()) : stockCalc;
    }

    /** {@code (reason): Calc(...)} → {@code Calc(...)}. */
    private static String calcOf(String stockCalc) {
        Matcher m = REASON_END.matcher(stockCalc);
        return m.find() ? stockCalc.substring(m.start() + 3) : stockCalc;
    }

    /**
     * The Calcs whose parent in the optimized execution plan is a WatermarkAssigner, as the
     * decisions print them (a {@code NativeCalc(..., native=[...])} node as its {@code Calc(...)}).
     */
    static Set<String> watermarkInputs(String plan) {
        Set<String> out = new HashSet<>();
        int start = plan.indexOf(EXECUTION_PLAN);
        if (start < 0) {
            return out;
        }
        String[] lines = plan.substring(start + EXECUTION_PLAN.length()).strip().split("\n");
        List<int[]> stack = new ArrayList<>(); // {depth, line index} of the ancestors
        for (int i = 0; i < lines.length && !lines[i].startsWith("=="); i++) {
            int depth = nodeStart(lines[i]);
            if (depth < 0) {
                continue;
            }
            while (!stack.isEmpty() && stack.get(stack.size() - 1)[0] >= depth) {
                stack.remove(stack.size() - 1);
            }
            String node = lines[i].substring(depth);
            if (!stack.isEmpty() && lines[stack.get(stack.size() - 1)[1]].substring(stack.get(stack.size() - 1)[0])
                    .startsWith("WatermarkAssigner(")) {
                if (node.startsWith("Calc(")) {
                    out.add(node);
                } else if (node.startsWith("NativeCalc(")) {
                    int nativePart = node.lastIndexOf(", native=[");
                    out.add(node.substring("Native".length(), nativePart < 0 ? node.length() : nativePart) + ")");
                }
            }
            stack.add(new int[] {depth, i});
        }
        return out;
    }

    /** Where the node's name starts on a plan line ({@code "   +- Calc(..."} → 6), -1 for a non-node line. */
    private static int nodeStart(String line) {
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (Character.isLetter(c)) {
                return i;
            }
            if (c != ' ' && c != '+' && c != '-' && c != ':' && c != '|') {
                return -1;
            }
        }
        return -1;
    }
}
