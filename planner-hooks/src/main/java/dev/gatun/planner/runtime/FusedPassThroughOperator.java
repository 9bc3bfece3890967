package dev.gatun.planner.runtime;

import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.operators.TableStreamOperator;

/**
 * Stands where a stock operator was fused into the native island above it (a WatermarkAssigner,
 * or the Calc under one): it hands every record, watermark and status through unchanged, so the
 * job graph keeps the stock operators, chains and operator IDs while the island does their work.
 */
public final class FusedPassThroughOperator extends TableStreamOperator<RowData>
        implements OneInputStreamOperator<RowData, RowData> {
    private static final long serialVersionUID = 1L;

    @Override
    public void processElement(StreamRecord<RowData> element) {
        output.collect(element);
    }
}
