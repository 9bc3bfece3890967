package dev.gatun.bench.e2e;

import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.RowType;

/** {@code 'connector' = 'gatun-blackhole'}: see {@link BlackholeSink}; {@code 'key'} names its checksum. */
public final class BlackholeSinkFactory implements DynamicTableSinkFactory {
    public static final String IDENTIFIER = "gatun-blackhole";
    public static final ConfigOption<String> KEY = ConfigOptions.key("key").stringType().defaultValue("default")
            .withDescription("The key under which the sink's row count and checksum are kept (Checksums.take).");

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
        return Set.of(KEY);
    }

    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        helper.validate();
        RowType type = (RowType) context.getPhysicalRowDataType().getLogicalType();
        return new TableSink(type, helper.getOptions().get(KEY));
    }

    private record TableSink(RowType type, String key) implements DynamicTableSink {
        @Override
        public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
            return requestedMode;
        }

        @Override
        public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
            return SinkV2Provider.of(new BlackholeSink(type, key));
        }

        @Override
        public DynamicTableSink copy() {
            return new TableSink(type, key);
        }

        @Override
        public String asSummaryString() {
            return "gatun-blackhole(" + key + ")";
        }
    }
}
