package dev.gatun.planner.testing;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code 'connector' = 'gatun-paced'}: a checkpointed FLIP-27 source of {@link #COLUMNS}, row
 * {@code i} computed from {@code i} alone (so a restored run replays exactly the same rows),
 * optionally rate-limited and optionally failing once.
 *
 * <p>Options: {@code id} (unique per table; names the one-time failure), {@code rows} (how many,
 * {@code 0} for practically unbounded), {@code rows-per-second} ({@code 0}: no limit),
 * {@code fail-at} (throw once at the first row index at or after this, {@code -1}: never) and
 * {@code fail-after-commit-of} (throw only once that commit sink has committed a checkpoint,
 * so the restart restores from a checkpoint, not from scratch).
 */
public final class PacedSourceFactory implements DynamicTableSourceFactory {
    public static final String COLUMNS = "id BIGINT NOT NULL, k INT, v BIGINT, s STRING, ts TIMESTAMP(3)";
    /** Event time of row 0; row i is i seconds later. */
    public static final long EPOCH_MILLIS = 1_700_000_000_000L;

    static final ConfigOption<String> ID = ConfigOptions.key("id").stringType().noDefaultValue();
    static final ConfigOption<Long> ROWS = ConfigOptions.key("rows").longType().defaultValue(1000L);
    static final ConfigOption<Double> RATE = ConfigOptions.key("rows-per-second").doubleType().defaultValue(0.0);
    static final ConfigOption<Long> FAIL_AT = ConfigOptions.key("fail-at").longType().defaultValue(-1L);
    static final ConfigOption<String> FAIL_AFTER_COMMIT_OF =
            ConfigOptions.key("fail-after-commit-of").stringType().noDefaultValue();

    private static final Set<String> FAILED = ConcurrentHashMap.newKeySet();

    /** Whether the source of table {@code id} has thrown its one failure. */
    public static boolean failed(String id) {
        return FAILED.contains(id);
    }

    /** The WITH clause of a paced table. */
    public static String with(String id, long rows, double rowsPerSecond, long failAt, String failAfterCommitOf) {
        return "WITH ('connector' = 'gatun-paced', 'id' = '" + id + "', 'rows' = '" + rows
                + "', 'rows-per-second' = '" + rowsPerSecond + "', 'fail-at' = '" + failAt + "'"
                + (failAfterCommitOf == null ? "" : ", 'fail-after-commit-of' = '" + failAfterCommitOf + "'") + ")";
    }

    /** Row {@code i}: NULLs in {@code v} every 17th row and in {@code s} every 11th. */
    public static GenericRowData row(long i) {
        return GenericRowData.of(
                i,
                (int) (i % 7),
                i % 17 == 0 ? null : (i * 13) % 1000 - 200,
                i % 11 == 0 ? null : StringData.fromString("s" + (i % 5)),
                TimestampData.fromEpochMillis(EPOCH_MILLIS + i * 1000));
    }

    @Override
    public String factoryIdentifier() {
        return "gatun-paced";
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(ID);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of(ROWS, RATE, FAIL_AT, FAIL_AFTER_COMMIT_OF);
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        helper.validate();
        RowType type = (RowType) context.getPhysicalRowDataType().getLogicalType();
        var o = helper.getOptions();
        return new Source(o.get(ID), o.get(ROWS), o.get(RATE), o.get(FAIL_AT),
                o.getOptional(FAIL_AFTER_COMMIT_OF).orElse(null), type);
    }

    private record Source(String id, long rows, double rate, long failAt, String failAfterCommitOf, RowType type)
            implements ScanTableSource {
        @Override
        public ChangelogMode getChangelogMode() {
            return ChangelogMode.insertOnly();
        }

        @Override
        public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
            String key = id;
            long at = failAt;
            String sink = failAfterCommitOf;
            GeneratorFunction<Long, RowData> rowsOf = i -> {
                if (at >= 0 && i >= at && (sink == null || CommitSinkFactory.hasCommits(sink)) && FAILED.add(key)) {
                    throw new IllegalStateException("injected failure of source " + key + " at row " + i);
                }
                return row(i);
            };
            long count = rows == 0 ? Long.MAX_VALUE : rows;
            RateLimiterStrategy<?> limit = rate > 0 ? RateLimiterStrategy.perSecond(rate) : RateLimiterStrategy.noOp();
            return SourceProvider.of(new DataGeneratorSource<>(rowsOf, count, limit, InternalTypeInfo.of(type)));
        }

        @Override
        public DynamicTableSource copy() {
            return new Source(id, rows, rate, failAt, failAfterCommitOf, type);
        }

        @Override
        public String asSummaryString() {
            return "gatun-paced(" + id + ")";
        }
    }
}
