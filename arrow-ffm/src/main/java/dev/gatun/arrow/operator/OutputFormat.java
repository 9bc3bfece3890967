package dev.gatun.arrow.operator;

import dev.gatun.ffm.GatunNative;

/** How a {@link NativeOperator}'s result batches come back from Rust ({@code gatun_operator_create}'s {@code output_format}). */
public enum OutputFormat {
    /**
     * One Arrow column per output column, then the row-kind column when the input has one, then
     * {@value NativeOperator#WATERMARK_COLUMN} when the plan assigns watermarks.
     */
    ARROW(GatunNative.OUTPUT_ARROW),
    /**
     * One non-null Binary column {@value NativeOperator#FLINK_ROW_COLUMN} whose value i is output row i
     * in Flink's {@code BinaryRowData} format (row kind in the header byte), then
     * {@value NativeOperator#WATERMARK_COLUMN} when the plan assigns watermarks. Flat output types
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
