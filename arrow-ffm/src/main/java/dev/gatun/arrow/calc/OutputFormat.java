package dev.gatun.arrow.calc;

import dev.gatun.ffm.GatunNative;

/** How a {@link NativeCalc}'s result batches come back from Rust ({@code gatun_calc_create}'s {@code output_format}). */
public enum OutputFormat {
    /** One Arrow column per projection, plus the row-kind column last when the input has one. */
    ARROW(GatunNative.OUTPUT_ARROW),
    /**
     * Exactly one non-null Binary column {@value NativeCalc#FLINK_ROW_COLUMN} whose value i is output
     * row i in Flink's {@code BinaryRowData} format (row kind in the header byte). Flat output types
     * only: a nested output column fails at create.
     */
    FLINK_ROWS(GatunNative.OUTPUT_FLINK_ROWS);

    private final int abiValue;

    OutputFormat(int abiValue) {
        this.abiValue = abiValue;
    }

    /** The {@code GATUN_OUTPUT_*} value. */
    public int abiValue() {
        return abiValue;
    }
}
