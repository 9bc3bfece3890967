package dev.gatun.planner.testing;

import dev.gatun.planner.Gatun;
import dev.gatun.planner.GatunOptions;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * One streaming TableEnvironment with Gatun enabled (force on, so every admitted Calc goes
 * native), running each query stock and native on the same environment.
 */
public final class Queries {
    private final TableEnvironment tEnv;

    public Queries() {
        tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.getConfig().set("parallelism.default", "1");
        tEnv.getConfig().set(GatunOptions.FORCE, true);
        if (!Gatun.enable(tEnv)) {
            throw new IllegalStateException("the native library did not load");
        }
    }

    public TableEnvironment env() {
        return tEnv;
    }

    public void sql(String ddl) {
        tEnv.executeSql(ddl);
    }

    public String explain(String query) {
        return Gatun.explain(tEnv, query);
    }

    /** The query's changelog, sorted, as {@code +I[..]} strings; the job has finished on return. */
    public List<String> run(String query, boolean nativeEnabled) throws Exception {
        tEnv.getConfig().set(GatunOptions.NATIVE_ENABLED, nativeEnabled);
        try {
            TableResult result = tEnv.executeSql(query);
            List<String> rows = new ArrayList<>();
            try (CloseableIterator<Row> it = result.collect()) {
                it.forEachRemaining(r -> rows.add(r.toString()));
            }
            result.getJobClient().orElseThrow().getJobExecutionResult().get();
            rows.sort(null);
            return rows;
        } finally {
            tEnv.getConfig().set(GatunOptions.NATIVE_ENABLED, true);
        }
    }

    public void set(String key, String value) {
        tEnv.getConfig().set(key, value);
    }
}
