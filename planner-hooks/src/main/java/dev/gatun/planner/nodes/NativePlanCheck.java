package dev.gatun.planner.nodes;

import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.operator.NativeOperator;
import dev.gatun.arrow.operator.OutputFormat;
import dev.gatun.arrow.types.Schema;
import dev.gatun.ffm.NativeException;
import dev.gatun.planner.runtime.NativeCalcSpec;
import dev.gatun.transpose.entry.BatchWriter;
import dev.gatun.transpose.types.TypeMapping;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.types.logical.RowType;

/**
 * Compiles a native island's Substrait plan once in Rust and frees it: at planning time (a plan
 * Rust refuses keeps the Calc on Flink) and when a compiled plan is executed (a plan written by
 * another Gatun version that this native library refuses runs on Flink).
 */
public final class NativePlanCheck {
    private NativePlanCheck() {}

    /** Throws the native library's refusal, if any. */
    public static void compile(byte[] plan, RowType inputType, List<int[]> readPaths, RowType outputType,
                               TypeMapping types, OutputFormat exit) throws NativeException {
        compile(NativeOperator.Kind.CALC, plan, inputType, readPaths, outputType, types, exit);
    }

    /** Throws the native library's refusal of a plan of {@code kind}, if any. */
    public static void compile(NativeOperator.Kind kind, byte[] plan, RowType inputType, List<int[]> readPaths,
                               RowType outputType, TypeMapping types, OutputFormat exit) throws NativeException {
        try (NativeAllocator allocator = NativeAllocator.create("gatun plan check", Long.MAX_VALUE);
             BatchWriter writer = new BatchWriter(inputType, readPaths, types, 1, true, allocator);
             NativeOperator op = NativeOperator.create(kind, plan, writer.schema(),
                     new Schema(types.fields(outputType), Map.of()), exit, allocator)) {
            // compiled, nothing to run
        }
    }

    static void compile(NativeCalcSpec spec) throws NativeException {
        compile(spec.kind(), spec.substraitPlan(), spec.inputType(), spec.readPaths(), spec.outputType(),
                new TypeMapping(spec.nanosecondTimestamps()), spec.flinkRowsExit() ? OutputFormat.FLINK_ROWS : OutputFormat.ARROW);
    }
}
