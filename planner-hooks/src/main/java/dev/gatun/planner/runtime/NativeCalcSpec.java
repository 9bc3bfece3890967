package dev.gatun.planner.runtime;

import dev.gatun.arrow.operator.NativeOperator;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.annotation.JsonCreator;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.annotation.JsonProperty;
import org.apache.flink.table.types.logical.RowType;

/**
 * Everything the native Calc operator needs at run time, decided at planning time.
 *
 * @param substraitPlan the Substrait {@code ExtendedExpression}: projections in output order and
 *     the filter named {@code gatun.filter}, over the pruned input schema
 * @param inputType the Calc's full input row type
 * @param readPaths the input field paths the Calc reads (top-level index, then nested ROW field
 *     indexes); only these are written into the batch, in this order
 * @param outputType the Calc's output row type
 * @param insertOnlyInput whether the input's changelog mode is insert-only (no row-kind column)
 * @param batchRows rows per batch
 * @param latencyMillis flush a partial batch at the latest this long after its first row
 * @param nanosecondTimestamps whether TIMESTAMP(7..9) crosses as Arrow nanoseconds
 * @param flinkRowsExit whether Rust writes the result rows in Flink's binary row format (else the
 *     result is Arrow columns read through a view); false in plans compiled before it existed
 * @param assignsWatermarks whether the island also does the work of a WatermarkAssigner it was
 *     fused with (the plan then has {@code gatun.rowtime} and {@code gatun.watermark})
 * @param bundleRows 0 for a Calc island; for a local-aggregate island (the Substrait plan is then a
 *     {@code Plan} with one {@code AggregateRel}) the rows of one bundle, {@code table.exec.mini-batch.size}:
 *     the island emits its groups after that many input rows, as Flink's local aggregate does
 * @param groupLimit 0 except for a batch local-aggregate island (its plan has no bundle): the groups
 *     it may hold; once an input batch leaves that many, they are emitted (Flink's batch local hash
 *     aggregate emits its groups when its memory is full), and the rest at the end of input
 * @param miniBatchIntervalMillis for a local-aggregate island that absorbed the processing-time
 *     mini-batch assigner below it, that assigner's interval (the island emits its watermarks and
 *     ends a bundle at each); for a local window-aggregate island that absorbed the row-time one
 *     ({@code assignsWatermarks}), its interval (the kernel forwards the watermarks it would); 0
 *     otherwise, also in plans compiled before it existed
 * @param window null, or for a local window-aggregate island (its plan carries the window; it has no
 *     bundle) the window as EXPLAIN prints it; absent in plans compiled before it existed
 * @param windowAggregate whether the island is the global (or one-phase) window aggregate: a keyed
 *     island whose kernel keeps the accumulators of every key and slice as native state, fires the
 *     windows on watermarks and writes its state into Flink's raw keyed state at checkpoints
 *     ({@code window} then holds its window); false in plans compiled before it existed
 * @param exitProjection null, or for a window-aggregate island that absorbed the projection-only
 *     Calc above it: emitted column {@code j} is the aggregate's column {@code exitProjection[j]}
 *     (the plan's AggregateRel emits that mapping; {@code outputType} stays the aggregate's row
 *     type, which Rust checks, so the operator and its state are the same with or without it)
 * @param exitType with {@code exitProjection}, the row type the island emits (the Calc's); else null
 *
 * <p>In a compiled plan it is the {@code nativeCalc} object of a {@link StreamExecNativeCalc}:
 * the Substrait bytes in base64, the row types in Flink's own JSON form, the read paths as arrays
 * of field indexes.
 */
public record NativeCalcSpec(
        @JsonProperty("substraitPlan") byte[] substraitPlan,
        @JsonProperty("inputType") RowType inputType,
        @JsonProperty("readPaths") List<int[]> readPaths,
        @JsonProperty("outputType") RowType outputType,
        @JsonProperty("insertOnlyInput") boolean insertOnlyInput,
        @JsonProperty("batchRows") int batchRows,
        @JsonProperty("latencyMillis") long latencyMillis,
        @JsonProperty("nanosecondTimestamps") boolean nanosecondTimestamps,
        @JsonProperty("flinkRowsExit") boolean flinkRowsExit,
        @JsonProperty("assignsWatermarks") boolean assignsWatermarks,
        @JsonProperty("bundleRows") long bundleRows,
        @JsonProperty("groupLimit") long groupLimit,
        @JsonProperty("miniBatchIntervalMillis") long miniBatchIntervalMillis,
        @JsonProperty("window") String window,
        @JsonProperty("windowAggregate") boolean windowAggregate,
        @JsonProperty("exitProjection") int[] exitProjection,
        @JsonProperty("exitType") RowType exitType) implements Serializable {

    @JsonCreator
    public NativeCalcSpec {
        Objects.requireNonNull(substraitPlan, "substraitPlan");
        Objects.requireNonNull(inputType, "inputType");
        Objects.requireNonNull(outputType, "outputType");
        readPaths = List.copyOf(Objects.requireNonNull(readPaths, "readPaths"));
        if (batchRows <= 0) {
            throw new IllegalArgumentException("gatun.batch.rows must be positive: " + batchRows);
        }
        if (bundleRows < 0) {
            throw new IllegalArgumentException("bundleRows must not be negative: " + bundleRows);
        }
        if (groupLimit < 0 || (groupLimit > 0 && bundleRows > 0)) {
            throw new IllegalArgumentException("groupLimit must be 0 (streaming, or a Calc) or positive without a"
                    + " bundle (a batch local aggregate): " + groupLimit + ", bundleRows " + bundleRows);
        }
        if (miniBatchIntervalMillis < 0
                || (miniBatchIntervalMillis > 0 && bundleRows == 0 && !(assignsWatermarks && groupLimit == 0))) {
            throw new IllegalArgumentException("miniBatchIntervalMillis " + miniBatchIntervalMillis
                    + " needs a local aggregate with a bundle, or a local window aggregate that assigns watermarks");
        }
        if (assignsWatermarks && window != null && !windowAggregate && miniBatchIntervalMillis == 0) {
            throw new IllegalArgumentException("a local window aggregate assigns watermarks only with the row-time"
                    + " mini-batch assigner it absorbed");
        }
        if (windowAggregate && (window == null || assignsWatermarks || !insertOnlyInput)) {
            throw new IllegalArgumentException("a window aggregate has a window, an insert-only input and assigns"
                    + " no watermarks");
        }
        if (exitProjection != null && !windowAggregate) {
            throw new IllegalArgumentException("only a window aggregate projects its output");
        }
        if ((exitProjection == null) != (exitType == null)
                || (exitType != null && exitType.getFieldCount() != exitProjection.length)) {
            throw new IllegalArgumentException("an exit projection comes with the row type it emits: "
                    + Arrays.toString(exitProjection) + ", " + exitType);
        }
        exitProjection = exitProjection == null ? null : exitProjection.clone();
        if (window != null && (bundleRows != 0 || groupLimit != 0)) {
            throw new IllegalArgumentException("a local window aggregate has no bundle and no group limit: "
                    + bundleRows + ", " + groupLimit);
        }
    }

    /**
     * A local-aggregate island with {@code bundleRows} (streaming) or {@code groupLimit} (batch); 0 and 0
     * for a window aggregate, see {@link #withWindow}.
     */
    public NativeCalcSpec(byte[] substraitPlan, RowType inputType, List<int[]> readPaths, RowType outputType,
                          boolean insertOnlyInput, int batchRows, long latencyMillis, boolean nanosecondTimestamps,
                          boolean flinkRowsExit, boolean assignsWatermarks, long bundleRows, long groupLimit,
                          long miniBatchIntervalMillis) {
        this(substraitPlan, inputType, readPaths, outputType, insertOnlyInput, batchRows, latencyMillis,
                nanosecondTimestamps, flinkRowsExit, assignsWatermarks, bundleRows, groupLimit, miniBatchIntervalMillis,
                null, false, null, null);
    }

    /** This spec as a local window-aggregate island's, with the window's EXPLAIN summary. */
    public NativeCalcSpec withWindow(String summary) {
        return new NativeCalcSpec(substraitPlan, inputType, readPaths, outputType, insertOnlyInput, batchRows,
                latencyMillis, nanosecondTimestamps, flinkRowsExit, assignsWatermarks, 0, 0, miniBatchIntervalMillis,
                Objects.requireNonNull(summary, "window"), false, null, null);
    }

    /**
     * A window-aggregate island (global phase of a two-phase window aggregate) over {@code substraitPlan},
     * a plan of {@link NativeOperator.Kind#WINDOW_AGGREGATE}.
     */
    public static NativeCalcSpec windowAggregate(byte[] substraitPlan, RowType inputType, List<int[]> readPaths,
                                                 RowType outputType, int batchRows, long latencyMillis,
                                                 boolean nanosecondTimestamps, boolean flinkRowsExit, String window) {
        return new NativeCalcSpec(substraitPlan, inputType, readPaths, outputType, true, batchRows, latencyMillis,
                nanosecondTimestamps, flinkRowsExit, false, 0, 0, 0, Objects.requireNonNull(window, "window"), true, null, null);
    }

    /**
     * This window-aggregate island with the projection-only Calc above it absorbed: it emits
     * {@code projected} rows, column {@code j} being its own column {@code mapping[j]}, from
     * {@code projectedPlan} (this spec's plan with that emit).
     */
    public NativeCalcSpec withExitProjection(byte[] projectedPlan, int[] mapping, RowType projected) {
        if (!windowAggregate || exitProjection != null) {
            throw new IllegalStateException("only a window aggregate without a projection takes one");
        }
        return new NativeCalcSpec(projectedPlan, inputType, readPaths, outputType, insertOnlyInput, batchRows,
                latencyMillis, nanosecondTimestamps, flinkRowsExit, false, 0, 0, 0, window, true, mapping, projected);
    }

    /** The rows the island emits: its {@code exitType} where it projects, else its {@code outputType}. */
    public RowType emittedType() {
        return exitType == null ? outputType : exitType;
    }

    /** A Calc island (projections and filter). */
    public static NativeCalcSpec calc(byte[] substraitPlan, RowType inputType, List<int[]> readPaths,
                                      RowType outputType, boolean insertOnlyInput, int batchRows,
                                      long latencyMillis, boolean nanosecondTimestamps, boolean flinkRowsExit,
                                      boolean assignsWatermarks) {
        return new NativeCalcSpec(substraitPlan, inputType, readPaths, outputType, insertOnlyInput, batchRows,
                latencyMillis, nanosecondTimestamps, flinkRowsExit, assignsWatermarks, 0, 0, 0, null, false, null, null);
    }

    /** Whether the island is a local (group or window) aggregate (its kernel keeps groups across batches). */
    public boolean localAggregate() {
        return !windowAggregate && (bundleRows > 0 || groupLimit > 0 || window != null);
    }

    /** The native operator kind of the island. */
    public NativeOperator.Kind kind() {
        if (windowAggregate) {
            return NativeOperator.Kind.WINDOW_AGGREGATE;
        }
        return localAggregate() ? NativeOperator.Kind.LOCAL_AGGREGATE : NativeOperator.Kind.CALC;
    }

    /** What EXPLAIN prints beside the Calc. */
    public String explainSummary() {
        StringBuilder sb = new StringBuilder("reads=[");
        for (int i = 0; i < readPaths.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(pathName(readPaths.get(i)));
        }
        sb.append("]");
        if (!insertOnlyInput) {
            sb.append(", rowKind");
        }
        if (assignsWatermarks) {
            sb.append(", watermarks");
        }
        sb.append(flinkRowsExit ? ", exit=rows" : ", exit=view");
        if (window != null) {
            sb.append(windowAggregate ? ", state=keyed" : "").append(", window=").append(window);
        }
        if (exitProjection != null) {
            sb.append(", projects=[").append(String.join(", ", exitType.getFieldNames())).append("]");
        }
        if (bundleRows > 0) {
            sb.append(", bundle=").append(bundleRows);
        }
        if (groupLimit > 0) {
            sb.append(", groupLimit=").append(groupLimit);
        }
        if (miniBatchIntervalMillis > 0) {
            sb.append(", miniBatch=").append(miniBatchIntervalMillis).append("ms");
        }
        return sb.append(", batch=").append(batchRows).toString();
    }

    private String pathName(int[] path) {
        RowType type = inputType;
        StringBuilder name = new StringBuilder();
        for (int i = 0; i < path.length; i++) {
            RowType.RowField field = type.getFields().get(path[i]);
            if (i > 0) {
                name.append('.');
            }
            name.append(field.getName());
            if (i + 1 < path.length) {
                type = (RowType) field.getType();
            }
        }
        return name.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NativeCalcSpec s && Arrays.equals(substraitPlan, s.substraitPlan)
                && inputType.equals(s.inputType) && outputType.equals(s.outputType)
                && insertOnlyInput == s.insertOnlyInput && batchRows == s.batchRows
                && latencyMillis == s.latencyMillis && nanosecondTimestamps == s.nanosecondTimestamps
                && flinkRowsExit == s.flinkRowsExit && assignsWatermarks == s.assignsWatermarks
                && bundleRows == s.bundleRows && groupLimit == s.groupLimit
                && miniBatchIntervalMillis == s.miniBatchIntervalMillis && Objects.equals(window, s.window)
                && windowAggregate == s.windowAggregate && Arrays.equals(exitProjection, s.exitProjection)
                && Objects.equals(exitType, s.exitType)
                && pathsEqual(readPaths, s.readPaths);
    }

    private static boolean pathsEqual(List<int[]> a, List<int[]> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!Arrays.equals(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(substraitPlan), inputType, outputType, batchRows);
    }
}
