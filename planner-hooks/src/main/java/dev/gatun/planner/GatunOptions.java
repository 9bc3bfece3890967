package dev.gatun.planner;

import static org.apache.flink.configuration.ConfigOptions.key;

import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;

/** The {@code gatun.*} keys, read from the table config at planning time. */
public final class GatunOptions {
    private GatunOptions() {}

    public static final ConfigOption<Boolean> NATIVE_ENABLED = key("gatun.native.enabled")
            .booleanType()
            .defaultValue(true)
            .withDescription("Run admitted Calcs natively. false plans every query exactly as stock Flink.");

    public static final ConfigOption<Boolean> FORCE = key("gatun.native.force")
            .booleanType()
            .defaultValue(false)
            .withDescription("Send every admitted Calc native, ignoring the cost rule (tests and benchmarks).");

    public static final ConfigOption<Double> COST_MIN_SPEEDUP = key("gatun.cost.min-speedup")
            .doubleType()
            .defaultValue(1.10)
            .withDescription("Cost rule: a Calc whose shape has a measured native/stock speedup below this stays"
                    + " on Flink (docs/planner.md). Shapes without a measurement go native; 0 admits every"
                    + " shape that computes something.");

    public static final ConfigOption<Boolean> STRICT = key("gatun.native.strict")
            .booleanType()
            .defaultValue(false)
            .withDescription("Fail instead of running stock when the native library cannot be loaded.");

    public static final ConfigOption<Integer> BATCH_ROWS = key("gatun.batch.rows")
            .intType()
            .defaultValue(4096)
            .withDescription("Rows per Arrow batch handed to the native operator.");

    public static final ConfigOption<Duration> BATCH_LATENCY = key("gatun.batch.latency")
            .durationType()
            .defaultValue(Duration.ofMillis(50))
            .withDescription("A partial batch is flushed at the latest this long after its first row (streaming;"
                    + " batch islands flush at the end of input).");

    public static final ConfigOption<List<String>> DISABLED_FUNCTIONS = key("gatun.functions.disabled")
            .stringType()
            .asList()
            .defaultValues()
            .withDescription("Functions (Flink SQL names, e.g. UPPER;SUBSTRING) that never run natively.");

    public static final ConfigOption<Boolean> NANOSECOND_TIMESTAMPS = key("gatun.types.nanosecond-timestamps")
            .booleanType()
            .defaultValue(false)
            .withDescription("Map TIMESTAMP(7..9) to Arrow nanoseconds (years 1677-2262 only; values outside fail).");

    public static final ConfigOption<Boolean> ENTRY_BORROWING = key("gatun.entry.borrowing")
            .booleanType()
            .defaultValue(true)
            .withDescription("With pipeline.object-reuse=false, let a native island's chained input skip Flink's"
                    + " per-record copy (the entry transpose copies what it reads). false keeps Flink's copy"
                    + " (benchmarks).");

    public static final ConfigOption<Boolean> LOCAL_AGGREGATE_ENABLED = key("gatun.aggregate.local.enabled")
            .booleanType()
            .defaultValue(true)
            .withDescription("Run the local (pre-shuffle) phase of two-phase group aggregates natively, fused with"
                    + " the Calc below it, where admitted. false keeps them on Flink (the Calc is still decided"
                    + " on its own).");

    public static final ConfigOption<Long> BATCH_AGGREGATE_GROUP_LIMIT = key("gatun.aggregate.batch.group-limit")
            .longType()
            .defaultValue(100_000L)
            .withDescription("Batch mode: the groups a native local hash aggregate holds before it emits them"
                    + " and starts over (Flink's local hash aggregate does the same when its managed memory is"
                    + " full). Checked after each input batch, so up to gatun.batch.rows more may be held."
                    + " Higher reduces more before the shuffle and holds more native memory.");

    public static final ConfigOption<Boolean> WINDOW_AGGREGATE_ENABLED = key("gatun.aggregate.window.enabled")
            .booleanType()
            .defaultValue(true)
            .withDescription("Run window aggregates natively (one-phase ones and the global phase of two-phase"
                    + " ones; TUMBLE, HOP, CUMULATE on event time), their accumulators kept"
                    + " as native state (bounded by taskmanager.memory.task.off-heap.size, checkpointed into Flink's"
                    + " raw keyed state). false keeps them on Flink. Their state is not Flink's window state: a"
                    + " savepoint restores only with the setting it was taken with.");
}
