package dev.gatun.bench.nexmark;

import dev.gatun.bench.probe.PausingSource;
import dev.gatun.bench.rows.RowFormat;
import dev.gatun.bench.rows.RowShape;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * {@code 'connector' = 'gatun-nexmark-events'}: the Nexmark event stream ({@link NexmarkGenerator})
 * as the Nexmark Flink benchmark's {@code nexmark} connector offers it, bounded to {@code events}
 * events. Like that connector it pushes nothing down: no projection (every Calc gets whole event
 * rows, all three ROW columns included) and no watermark (the planner puts a WatermarkAssigner
 * after the scan).
 *
 * <p>A connector of its own rather than a {@code kind} of {@code gatun-nexmark}: its events are
 * defined by the benchmark (seeded by event id, spaced by an event rate), not by that connector's
 * {@code seed}, and its row is the benchmark's wide event row, not one of the flat
 * {@link RowShape}s that the JMH fixtures share.
 */
public final class NexmarkEventSourceFactory implements DynamicTableSourceFactory {
    public static final String IDENTIFIER = "gatun-nexmark-events";
    /** The table the benchmark's DDL creates and its views read. */
    public static final String TABLE = "datagen";
    public static final ConfigOption<Long> EVENTS = ConfigOptions.key("events").longType().defaultValue(1_000_000L)
            .withDescription("Number of events (ids 0 .. events - 1); the source is bounded.");
    public static final ConfigOption<Long> EVENTS_PER_SECOND = ConfigOptions.key("events-per-second").longType()
            .defaultValue(Nexmark.DEFAULT_EVENTS_PER_SECOND)
            .withDescription("The event rate that spaces event timestamps (the benchmark's TPS); not a throttle.");
    public static final ConfigOption<Long> BASE_TIME = ConfigOptions.key("base-time").longType()
            .defaultValue(RowShape.BASE_MILLIS).withDescription("Timestamp of event 0, epoch milliseconds.");
    public static final ConfigOption<String> ROW_FORMAT = ConfigOptions.key("row-format").stringType()
            .defaultValue("generic")
            .withDescription("generic (GenericRowData, lazy strings, as the benchmark) or binary (BinaryRowData).");

    public static final ConfigOption<String> CPU_KEY = ConfigOptions.key("cpu-key").stringType().noDefaultValue()
            .withDescription("Where the source reports its task thread's CPU time when it closes (TaskCpu).");
    /**
     * A session option, not a table option: when set, the source of a job with a {@code cpu-key}
     * stops after this many events until a checkpoint completes ({@link PausingSource}), the gate
     * keyed by its {@code cpu-key}.
     */
    public static final ConfigOption<Long> PAUSE_FOR_CHECKPOINT = ConfigOptions.key("gatun.bench.pause-for-checkpoint")
            .longType().noDefaultValue()
            .withDescription("Events after which the benchmark's Nexmark source waits for one checkpoint.");

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of(EVENTS, EVENTS_PER_SECOND, BASE_TIME, ROW_FORMAT, CPU_KEY);
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        helper.validate();
        ReadableConfig options = helper.getOptions();
        LogicalType declared = context.getPhysicalRowDataType().getLogicalType();
        if (!declared.copy(true).equals(Nexmark.EVENT_TYPE)) { // the physical row type itself is NOT NULL
            throw new ValidationException("table " + context.getObjectIdentifier() + " declares " + declared
                    + " but Nexmark events are " + Nexmark.EVENT_TYPE);
        }
        String cpuKey = options.getOptional(CPU_KEY).orElse(null);
        long pauseAfter = cpuKey == null ? -1
                : context.getConfiguration().getOptional(PAUSE_FOR_CHECKPOINT).orElse(-1L);
        return new TableSource(options.get(EVENTS), options.get(EVENTS_PER_SECOND), options.get(BASE_TIME),
                RowFormat.of(options.get(ROW_FORMAT)), cpuKey, pauseAfter);
    }

    /**
     * The benchmark's {@code ddl_gen.sql} as a temporary table of {@code events} events: the wide
     * row, the computed {@code dateTime} of whichever kind the event is, and its watermark 4 s behind.
     */
    public static String createTableDdl(long events, long eventsPerSecond, RowFormat format) {
        return createTableDdl(events, eventsPerSecond, format, null);
    }

    /** {@link #createTableDdl(long, long, RowFormat)} reporting task CPU under {@code cpuKey} (if not null). */
    public static String createTableDdl(long events, long eventsPerSecond, RowFormat format, String cpuKey) {
        return "CREATE TEMPORARY TABLE " + TABLE + " (\n"
                + "  event_type INT,\n"
                + "  person ROW<id BIGINT, name VARCHAR, emailAddress VARCHAR, creditCard VARCHAR, city VARCHAR,"
                + " state VARCHAR, `dateTime` TIMESTAMP(3), extra VARCHAR>,\n"
                + "  auction ROW<id BIGINT, itemName VARCHAR, description VARCHAR, initialBid BIGINT, reserve BIGINT,"
                + " `dateTime` TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra VARCHAR>,\n"
                + "  bid ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR,"
                + " `dateTime` TIMESTAMP(3), extra VARCHAR>,\n"
                + "  `dateTime` AS CASE WHEN event_type = 0 THEN person.`dateTime`"
                + " WHEN event_type = 1 THEN auction.`dateTime` ELSE bid.`dateTime` END,\n"
                + "  WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND\n"
                + ") WITH ('connector' = '" + IDENTIFIER + "', 'events' = '" + events + "', 'events-per-second' = '"
                + eventsPerSecond + "', 'row-format' = '" + format.name().toLowerCase(Locale.ROOT) + "'"
                + (cpuKey == null ? "" : ", 'cpu-key' = '" + cpuKey + "'") + ")";
    }

    /** The benchmark's {@code ddl_views.sql}: {@code person}, {@code auction} and {@code bid} over {@link #TABLE}. */
    public static List<String> createViewsDdl() {
        return List.of(
                "CREATE TEMPORARY VIEW person AS SELECT person.id, person.name, person.emailAddress,"
                        + " person.creditCard, person.city, person.state, `dateTime`, person.extra"
                        + " FROM " + TABLE + " WHERE event_type = 0",
                "CREATE TEMPORARY VIEW auction AS SELECT auction.id, auction.itemName, auction.description,"
                        + " auction.initialBid, auction.reserve, `dateTime`, auction.expires, auction.seller,"
                        + " auction.category, auction.extra FROM " + TABLE + " WHERE event_type = 1",
                "CREATE TEMPORARY VIEW bid AS SELECT bid.auction, bid.bidder, bid.price, bid.channel, bid.url,"
                        + " `dateTime`, bid.extra FROM " + TABLE + " WHERE event_type = 2");
    }

    /** The table and its three views: everything a Nexmark query needs. */
    public static List<String> ddl(long events, long eventsPerSecond, RowFormat format) {
        return ddl(events, eventsPerSecond, format, null);
    }

    /** {@link #ddl(long, long, RowFormat)} with the table reporting task CPU under {@code cpuKey} (if not null). */
    public static List<String> ddl(long events, long eventsPerSecond, RowFormat format, String cpuKey) {
        return java.util.stream.Stream.concat(java.util.stream.Stream.of(createTableDdl(events, eventsPerSecond,
                format, cpuKey)), createViewsDdl().stream()).toList();
    }

    private record TableSource(long events, long eventsPerSecond, long baseTime, RowFormat format, String cpuKey,
                               long pauseAfter) implements ScanTableSource {
        @Override
        public ChangelogMode getChangelogMode() {
            return ChangelogMode.insertOnly();
        }

        @Override
        public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
            TightLoopGeneratorSource<RowData> source = new TightLoopGeneratorSource<>(new NexmarkEventFunction(baseTime,
                    eventsPerSecond, format, cpuKey), events, InternalTypeInfo.of(Nexmark.EVENT_TYPE));
            return SourceProvider.of(pauseAfter < 0 ? source : new PausingSource<>(source, cpuKey, pauseAfter));
        }

        @Override
        public DynamicTableSource copy() {
            return new TableSource(events, eventsPerSecond, baseTime, format, cpuKey, pauseAfter);
        }

        @Override
        public String asSummaryString() {
            return IDENTIFIER + "(" + events + " events, " + Boundedness.BOUNDED + ")";
        }
    }
}
