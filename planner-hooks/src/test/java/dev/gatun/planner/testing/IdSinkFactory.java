package dev.gatun.planner.testing;

import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.FactoryUtil;

/** A test sink factory whose tables name their sink by {@code 'id'}: what every such factory shares. */
abstract class IdSinkFactory implements DynamicTableSinkFactory {
    static final ConfigOption<String> ID = ConfigOptions.key("id").stringType().noDefaultValue();

    private final String identifier;
    private final Set<ConfigOption<?>> optional;

    IdSinkFactory(String identifier, ConfigOption<?>... optional) {
        this.identifier = identifier;
        this.optional = Set.of(optional);
    }

    /** The sink of a table whose options (validated) are {@code options}. */
    abstract DynamicTableSink create(ReadableConfig options, Context context);

    @Override
    public final String factoryIdentifier() {
        return identifier;
    }

    @Override
    public final Set<ConfigOption<?>> requiredOptions() {
        return Set.of(ID);
    }

    @Override
    public final Set<ConfigOption<?>> optionalOptions() {
        return optional;
    }

    @Override
    public final DynamicTableSink createDynamicTableSink(Context context) {
        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        helper.validate();
        return create(helper.getOptions(), context);
    }
}
