package dev.gatun.planner.rewrite;

import dev.gatun.planner.GatunOptions;
import dev.gatun.planner.substrait.ReadPaths;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.flink.table.api.TableConfig;

/**
 * The admission cost rule (docs/planner.md, "Cost rule"): whether a translatable Calc is worth
 * crossing to native. Crossing costs the entry and exit transposes; a Calc wins only when the
 * native evaluation saves more than that.
 *
 * <ul>
 *   <li>A Calc that only selects, renames or reorders columns computes nothing: it always stays
 *       on Flink unless {@code gatun.native.force} is set.
 *   <li>Otherwise the Calc's {@link Shape} is looked up in {@link #MEASURED}: a shape with a
 *       measured speedup goes native only when that speedup is at least
 *       {@code gatun.cost.min-speedup}. A shape without a measurement goes native.
 * </ul>
 *
 * <p>The measurements are the only thresholds of the rule and live here, in one place.
 */
public final class CostRule {
    /** What a Calc spends its time on, as far as the benchmark tells them apart. */
    public enum Shape {
        /** Column references, literals, arithmetic and comparisons in the projections (demo q1). */
        CHEAP_PROJECTION("cheap arithmetic projection"),
        /** A filter of column references, literals, arithmetic and comparisons; projections only select (demo q2). */
        CHEAP_FILTER("cheap filter"),
        /** Any string function, LIKE or string CASE result (demo strings+case). */
        STRINGS("string functions"),
        /** Temporal functions, DECIMAL arithmetic, casts. */
        OTHER("other expressions");

        private final String description;

        Shape(String description) {
            this.description = description;
        }

        public String description() {
            return description;
        }
    }

    /**
     * Stock cost divided by native cost per shape (> 1: native is cheaper), from the e2e benchmark
     * (docs/performance.md, docs/bench/e2e-summary.md: {@code bin/gatun bench e2e --rows 500000
     * --warmups 1 --trials 5}, 2-core VM, JDK 25, run of 2026-11-30 07:21 UTC): the median over the
     * shape's queries of stock task-thread CPU / Gatun task-thread CPU (CPU time, because
     * wall-clock rates on that loaded machine varied 2-3x). q1 {@code price * 0.908} 0.87; q2
     * {@code auction % 123 = 0} 0.87; strings 1.23, CASE chain 0.90, demo 0.93; DECIMAL arithmetic
     * 1.07, timestamp EXTRACT and CAST 0.85.
     */
    static final java.util.Map<Shape, Double> MEASURED = java.util.Map.of(
            Shape.CHEAP_PROJECTION, 0.87,
            Shape.CHEAP_FILTER, 0.87,
            Shape.STRINGS, 0.93,
            Shape.OTHER, 0.96);

    /** The measured speedup of a shape, if the benchmark has one. */
    public static java.util.OptionalDouble measured(Shape shape) {
        Double m = MEASURED.get(shape);
        return m == null ? java.util.OptionalDouble.empty() : java.util.OptionalDouble.of(m);
    }

    private static final Set<SqlKind> CHEAP = Set.of(
            SqlKind.PLUS, SqlKind.MINUS, SqlKind.TIMES, SqlKind.DIVIDE, SqlKind.MOD, SqlKind.MINUS_PREFIX,
            SqlKind.PLUS_PREFIX, SqlKind.EQUALS, SqlKind.NOT_EQUALS, SqlKind.LESS_THAN,
            SqlKind.LESS_THAN_OR_EQUAL, SqlKind.GREATER_THAN, SqlKind.GREATER_THAN_OR_EQUAL,
            SqlKind.IS_DISTINCT_FROM, SqlKind.IS_NOT_DISTINCT_FROM, SqlKind.AND, SqlKind.OR, SqlKind.NOT,
            SqlKind.IS_NULL, SqlKind.IS_NOT_NULL, SqlKind.IS_TRUE, SqlKind.IS_FALSE, SqlKind.IS_NOT_TRUE,
            SqlKind.IS_NOT_FALSE);

    private final boolean force;
    private final double minSpeedup;

    public CostRule(TableConfig config) {
        this.force = config.get(GatunOptions.FORCE);
        this.minSpeedup = config.get(GatunOptions.COST_MIN_SPEEDUP);
    }

    /** Null when the Calc should go native, else the reason it stays on Flink. */
    public String rejection(List<RexNode> projections, RexNode condition) {
        if (force) {
            return null;
        }
        boolean selectsOnly = projections.stream().allMatch(p -> ReadPaths.path(p) != null);
        if (selectsOnly && condition == null) {
            return "cost rule: the Calc only selects, renames or reorders columns, so crossing to native would"
                    + " cost more than it saves (gatun.native.force=true overrides)";
        }
        Shape shape = shape(projections, condition, selectsOnly);
        Double measured = MEASURED.get(shape);
        if (measured != null && measured < minSpeedup) {
            return String.format(Locale.ROOT, "cost rule: a Calc of %s measured %.2fx stock, below"
                    + " gatun.cost.min-speedup=%.2f (gatun.native.force=true overrides)",
                    shape.description, measured, minSpeedup);
        }
        return null;
    }

    static Shape shape(List<RexNode> projections, RexNode condition, boolean selectsOnly) {
        Classifier c = new Classifier();
        projections.forEach(p -> p.accept(c));
        if (condition != null) {
            condition.accept(c);
        }
        if (c.strings) {
            return Shape.STRINGS;
        }
        if (c.other) {
            return Shape.OTHER;
        }
        return selectsOnly ? Shape.CHEAP_FILTER : Shape.CHEAP_PROJECTION;
    }

    private static final class Classifier extends RexVisitorImpl<Void> {
        boolean strings;
        boolean other;

        Classifier() {
            super(true);
        }

        @Override
        public Void visitCall(RexCall call) {
            boolean stringValued = SqlTypeFamily.CHARACTER.contains(call.getType());
            boolean stringOperand = call.getOperands().stream()
                    .anyMatch(o -> SqlTypeFamily.CHARACTER.contains(o.getType()));
            if (stringValued || (stringOperand && !isComparison(call.getKind()))) {
                strings = true;
            } else if (!CHEAP.contains(call.getKind())) {
                other = true;
            }
            return super.visitCall(call);
        }

        private static boolean isComparison(SqlKind kind) {
            return SqlKind.COMPARISON.contains(kind) || kind == SqlKind.IS_NULL || kind == SqlKind.IS_NOT_NULL;
        }
    }
}
