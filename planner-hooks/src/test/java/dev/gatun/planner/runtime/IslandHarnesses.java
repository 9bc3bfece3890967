package dev.gatun.planner.runtime;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.keyselector.RowDataKeySelector;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.LogicalType;

/** What the island operator tests share: a keyed harness and the output as strings. */
final class IslandHarnesses {
    private IslandHarnesses() {}

    /**
     * A harness of a keyed island (subtask {@code subtask} of {@code parallelism}), restored from
     * {@code restore} if given, opened; closed with {@code open}.
     */
    static KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> keyed(
            NativeCalcSpec spec, RowDataKeySelector selector, int maxParallelism, int parallelism, int subtask,
            OperatorSubtaskState restore, List<AutoCloseable> open) throws Exception {
        var h = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedIslandOperator(spec), selector,
                selector.getProducedType(), maxParallelism, parallelism, subtask);
        h.setup(new RowDataSerializer(spec.outputType()));
        open.add(0, h);
        if (restore != null) {
            h.initializeState(restore);
        }
        h.open();
        return h;
    }

    /** {@code emitted} as {@code [field, ...]} strings of the spec's output type, sorted between watermarks, and {@code W<ts>}. */
    static List<String> output(Iterable<Object> emitted, NativeCalcSpec spec) {
        List<LogicalType> types = spec.outputType().getChildren();
        List<String> out = new ArrayList<>();
        List<String> rows = new ArrayList<>();
        for (Object o : emitted) {
            if (o instanceof Watermark w) {
                rows.sort(null);
                out.addAll(rows);
                rows.clear();
                out.add("W" + w.getTimestamp());
            } else if (o instanceof StreamRecord<?> r) {
                rows.add(text((RowData) r.getValue(), types));
            }
        }
        rows.sort(null);
        out.addAll(rows);
        return out;
    }

    /** {@code row} as {@code [field, ...]} of {@code types}. */
    static String text(RowData row, List<LogicalType> types) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < types.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(RowData.createFieldGetter(types.get(i), i).getFieldOrNull(row));
        }
        return sb.append(']').toString();
    }
}
