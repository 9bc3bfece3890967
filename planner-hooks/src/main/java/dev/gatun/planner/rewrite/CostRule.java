package dev.gatun.planner.rewrite;

import dev.gatun.planner.GatunOptions;
import dev.gatun.planner.substrait.ReadPaths;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.table.api.TableConfig;

/**
 * The admission cost rule (docs/planner.md, "Cost rule"): whether a translatable Calc is worth
 * crossing to native. Crossing costs the entry and exit transposes; a Calc wins only when the
 * native evaluation saves more than that.
 *
 * <ul>
 *   <li>A Calc that only selects, renames or reorders columns computes nothing: it always stays
 *       on Flink unless {@code gatun.native.force} is set.
 *   <li>Otherwise the Calc's {@link Shape} is looked up in {@link #FUSED} (a Calc planned as one
 *       island with its WatermarkAssigner) or {@link #ALONE}, under the job's
 *       {@code pipeline.object-reuse}, or, for a batch job, in {@link #BATCH_NESTED} or {@link #BATCH_FLAT}: a shape with a
 *       measured speedup goes native only when that speedup is at least
 *       {@code gatun.cost.min-speedup}. A shape without a measurement goes native.
 * </ul>
 *
 * <p>A native local aggregate is looked up the same way in {@link #AGGREGATE}, by what its island
 * absorbs.
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

    /** A shape's measured speedup (stock task CPU ÷ Gatun task CPU) under each object-reuse setting. */
    record Speedup(double objectReuseOff, double objectReuseOn) {
        double under(boolean objectReuse) {
            return objectReuse ? objectReuseOn : objectReuseOff;
        }
    }

    /**
     * Stock cost divided by native cost per shape (> 1: native is cheaper) for a Calc alone, from the
     * e2e benchmark (docs/performance.md, docs/bench/e2e-summary.md: {@code bin/gatun bench e2e --rows
     * 500000 --warmups 1 --trials 5 --reuse off,on --queries q0,q1,q2,q21,q22,decimal,timestamp,island,
     * flatq1,flatq2,strings,case,wide,demo}, 2-core VM, JDK 25, run of 2026-12-03 12:35 UTC with the
     * tight-loop source, 20-35 % hypervisor steal), with entry borrowing, the Flink-rows exit, UTF-8
     * checks only where text is read and LIKE's per-pattern searcher: per shape the median over its
     * queries of the median over trial pairs of stock task-thread CPU ÷ Gatun task-thread CPU (CPU
     * time, because wall-clock rates on a small shared machine vary 2-3x). CHEAP_PROJECTION: flatq1;
     * CHEAP_FILTER: flatq2; STRINGS: strings, case, demo; OTHER: decimal, timestamp. With object
     * reuse on, stock pays no copy into the Calc, and only string work comes near a win.
     */
    static final Map<Shape, Speedup> ALONE = Map.of(
            Shape.CHEAP_PROJECTION, new Speedup(1.69, 0.84),
            Shape.CHEAP_FILTER, new Speedup(3.53, 0.69),
            Shape.STRINGS, new Speedup(2.44, 1.08),
            Shape.OTHER, new Speedup(1.85, 0.80));

    /**
     * The same for a Calc fused with the WatermarkAssigner below it (and its computed-column Calc):
     * one island replaces two or three chained operators and their copies. From the Nexmark queries
     * of the same run (q0..q2, q21, q22 over the benchmark's views; the event table declares a
     * watermark): CHEAP_PROJECTION q1; CHEAP_FILTER q0 (the bid view's {@code event_type = 2}), q2;
     * STRINGS q21, q22. A shape measured only alone uses its {@link #ALONE} figure.
     */
    static final Map<Shape, Speedup> FUSED = Map.of(
            Shape.CHEAP_PROJECTION, new Speedup(2.14, 1.69),
            Shape.CHEAP_FILTER, new Speedup(2.33, 1.79),
            Shape.STRINGS, new Speedup(2.60, 1.73));

    /**
     * The same for a Calc of a batch job ({@code execution.runtime-mode: batch}). Flink's batch
     * executor always enables object reuse, so stock pays no copy into the Calc, and nothing is fused
     * (a batch plan has no WatermarkAssigner). From the batch run of the e2e benchmark
     * ({@code bin/gatun bench e2e --rows 500000 --warmups 3 --trials 5 --mode batch}, every query,
     * 2026-12-04 18:28 UTC, tight-loop source, steal under 0.1 %, docs/bench/batch/e2e-summary.md),
     * per shape the median over its queries of the median over trial pairs of stock ÷ Gatun task CPU.
     * What tells winners from losers there is the input more than the expressions: Calcs that read
     * fields of ROW columns (the Nexmark views over the wide event table) win, Calcs over flat rows
     * win only on cheap projections and string work. Reading ROW fields: CHEAP_PROJECTION q1 1.65;
     * CHEAP_FILTER q0 1.55, q2 2.45; STRINGS q21 2.81, q22 1.62.
     */
    static final Map<Shape, Double> BATCH_NESTED = Map.of(
            Shape.CHEAP_PROJECTION, 1.65,
            Shape.CHEAP_FILTER, 2.00,
            Shape.STRINGS, 2.21);

    /**
     * The same for batch Calcs over flat rows: CHEAP_PROJECTION flatq1 1.10 (1.20 with one warmup job,
     * 17:33 UTC, and 1.21 at 2,000,000 rows, 17:51 UTC, since DECIMAL arithmetic has an i128 fast
     * path); CHEAP_FILTER flatq2 0.84; STRINGS strings 1.84, case 0.76, demo 1.28; OTHER decimal 1.13,
     * timestamp 0.63.
     */
    static final Map<Shape, Double> BATCH_FLAT = Map.of(
            Shape.CHEAP_PROJECTION, 1.10,
            Shape.CHEAP_FILTER, 0.84,
            Shape.STRINGS, 1.28,
            Shape.OTHER, 0.88);

    /** How a Calc is planned, as far as the measurements tell them apart. */
    public enum Planning {
        /** A streaming Calc alone. */
        ALONE,
        /** A streaming Calc fused with the WatermarkAssigner below it. */
        FUSED,
        /** A Calc of a batch job that reads fields of ROW columns. */
        BATCH_NESTED,
        /** A Calc of a batch job over flat rows. */
        BATCH_FLAT;

        /** The batch planning of a Calc, by whether it reads fields of ROW columns. */
        public static Planning batch(List<RexNode> projections, RexNode condition) {
            boolean nested = projections.stream().anyMatch(CostRule::readsRowFields)
                    || (condition != null && readsRowFields(condition));
            return nested ? BATCH_NESTED : BATCH_FLAT;
        }

        public boolean isBatch() {
            return this == BATCH_NESTED || this == BATCH_FLAT;
        }
    }

    private static boolean readsRowFields(RexNode node) {
        boolean[] found = {false};
        node.accept(new RexVisitorImpl<Void>(true) {
            @Override
            public Void visitFieldAccess(RexFieldAccess access) {
                found[0] = true;
                return null;
            }
        });
        return found[0];
    }

    /** The measured speedup of a shape, alone or fused, under an object-reuse setting, if the benchmark has one. */
    public static OptionalDouble measured(Shape shape, boolean fused, boolean objectReuse) {
        return measured(shape, fused ? Planning.FUSED : Planning.ALONE, objectReuse);
    }

    /** The measured speedup of a shape planned as {@code planning}; a batch job always reuses objects. */
    public static OptionalDouble measured(Shape shape, Planning planning, boolean objectReuse) {
        if (planning.isBatch()) {
            Double batch = (planning == Planning.BATCH_NESTED ? BATCH_NESTED : BATCH_FLAT).get(shape);
            if (batch != null) {
                return OptionalDouble.of(batch);
            }
            objectReuse = true;
        }
        Speedup m = planning == Planning.FUSED && FUSED.containsKey(shape) ? FUSED.get(shape) : ALONE.get(shape);
        return m == null ? OptionalDouble.empty() : OptionalDouble.of(m.under(objectReuse));
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
    private final boolean objectReuse;

    public CostRule(TableConfig config) {
        this.force = config.get(GatunOptions.FORCE);
        this.minSpeedup = config.get(GatunOptions.COST_MIN_SPEEDUP);
        this.objectReuse = config.get(PipelineOptions.OBJECT_REUSE);
    }

    /** Null when the Calc should go native, else the reason it stays on Flink. */
    public String rejection(List<RexNode> projections, RexNode condition, Planning planning) {
        if (force) {
            return null;
        }
        boolean selectsOnly = projections.stream().allMatch(p -> ReadPaths.path(p) != null);
        if (selectsOnly && condition == null) {
            return "cost rule: the Calc only selects, renames or reorders columns, so crossing to native would"
                    + " cost more than it saves (gatun.native.force=true overrides)";
        }
        Shape shape = shape(projections, condition, selectsOnly);
        OptionalDouble measured = measured(shape, planning, objectReuse);
        if (measured.isPresent() && measured.getAsDouble() < minSpeedup) {
            String setting = planning.isBatch()
                    ? "in batch mode (where Flink always reuses objects)"
                    : "with pipeline.object-reuse=" + objectReuse;
            return String.format(Locale.ROOT, "cost rule: a Calc of %s%s measured %.2fx stock %s, below"
                    + " gatun.cost.min-speedup=%.2f (gatun.native.force=true overrides)", shape.description,
                    planning == Planning.FUSED ? " fused with its WatermarkAssigner"
                            : planning == Planning.BATCH_NESTED ? " reading fields of ROW columns" : "",
                    measured.getAsDouble(), setting, minSpeedup);
        }
        return null;
    }

    /**
     * The measured speedups of a native local aggregate (stock ÷ Gatun total task CPU of the job,
     * every task thread: the local phase and the global aggregate after the shuffle), by what the
     * island absorbs. From {@code bin/gatun bench e2e --rows 500000 --warmups 1 --trials 5 --reuse
     * off,on --queries q17,aggflat} (2-core VM, JDK 25, run of 2026-12-03 12:31 UTC, tight-loop
     * source, 20-35 % hypervisor steal; docs/bench/aggregate; median over trial pairs).
     * ABSORBED_ASSIGNERS: Nexmark q17 (the island also absorbs the mini-batch and watermark
     * assigners and the computed-column Calc, and reads the wide event rows in place), 3.44 / 2.16.
     * PLAIN: aggflat, a group aggregate over flat rows with ~1 group per 5 rows, where the global
     * phase does most of the work on both engines, 1.29 / 1.20.
     */
    static final Map<AggregatePlanning, Speedup> AGGREGATE = Map.of(
            AggregatePlanning.ABSORBED_ASSIGNERS, new Speedup(3.44, 2.16),
            AggregatePlanning.PLAIN, new Speedup(1.29, 1.20));

    /** How a native local aggregate is planned, as far as the measurements tell them apart. */
    public enum AggregatePlanning {
        /** The local aggregate and the Calc under it. */
        PLAIN("with its Calc"),
        /** Also the mini-batch and watermark assigners and the computed-column Calc under them. */
        ABSORBED_ASSIGNERS("with its Calc and the assigners under it");

        private final String description;

        AggregatePlanning(String description) {
            this.description = description;
        }
    }

    /** The measured speedup of a native local aggregate planned as {@code planning}. */
    public static double measured(AggregatePlanning planning, boolean objectReuse) {
        return AGGREGATE.get(planning).under(objectReuse);
    }

    /** Null when the local aggregate should go native, else the reason it stays on Flink. */
    public String aggregateRejection(AggregatePlanning planning) {
        double measured = measured(planning, objectReuse);
        if (force || measured >= minSpeedup) {
            return null;
        }
        return String.format(Locale.ROOT, "cost rule: a local aggregate %s measured %.2fx stock with"
                + " pipeline.object-reuse=%s, below gatun.cost.min-speedup=%.2f (gatun.native.force=true overrides)",
                planning.description, measured, objectReuse, minSpeedup);
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
