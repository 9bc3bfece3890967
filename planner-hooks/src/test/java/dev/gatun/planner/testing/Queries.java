package dev.gatun.planner.testing;

import dev.gatun.planner.Gatun;
import dev.gatun.planner.GatunOptions;
import dev.gatun.planner.rewrite.CalcDecision;
import dev.gatun.planner.rewrite.PlanReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobID;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.StatementSet;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.TableDescriptor;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * One TableEnvironment with Gatun enabled (force on, so every admitted Calc goes native),
 * running each query stock and native on the same environment.
 */
public final class Queries {
    private final TableEnvironment tEnv;
    private JobID lastJob;

    /** A streaming environment. */
    public Queries() {
        this(EnvironmentSettings.inStreamingMode());
    }

    public Queries(EnvironmentSettings settings) {
        tEnv = TableEnvironment.create(settings);
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

    /** Gatun's decision for every Calc of the query's optimized plan, in plan order. */
    public List<CalcDecision> decisions(String query) {
        PlanReport report = PlanReport.start();
        try {
            tEnv.explainSql(query);
            return report.decisions();
        } finally {
            report.stop();
        }
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

    /**
     * Runs every query as one job (a statement set, one collecting sink per query) and returns
     * each query's changelog, sorted. {@code upsertKeys}, when not null, makes every sink an
     * upsert sink with that primary key, so the plan drops UPDATE_BEFORE.
     */
    public Map<String, List<String>> runAll(List<String> queries, boolean nativeEnabled, List<String> upsertKeys)
            throws Exception {
        tEnv.getConfig().set(GatunOptions.NATIVE_ENABLED, nativeEnabled);
        try {
            StatementSet set = tEnv.createStatementSet();
            Map<String, String> sinks = new LinkedHashMap<>();
            for (String query : queries) {
                Table table = tEnv.sqlQuery(query);
                String id = CollectSinkFactory.newId();
                Schema.Builder schema = Schema.newBuilder().fromResolvedSchema(table.getResolvedSchema());
                TableDescriptor.Builder sink = TableDescriptor.forConnector("gatun-test-collect").option("id", id);
                if (upsertKeys != null) {
                    schema.primaryKey(upsertKeys);
                    sink.option("upsert", "true");
                }
                set.add(table.insertInto(sink.schema(schema.build()).build()));
                sinks.put(query, id);
            }
            TableResult result = set.execute();
            lastJob = result.getJobClient().orElseThrow().getJobID();
            result.await();
            Map<String, List<String>> results = new LinkedHashMap<>();
            sinks.forEach((query, id) -> results.put(query, CollectSinkFactory.take(id)));
            return results;
        } finally {
            tEnv.getConfig().set(GatunOptions.NATIVE_ENABLED, true);
        }
    }

    /** The job {@link #runAll} submitted last. */
    public JobID lastJob() {
        return lastJob;
    }

    public void set(String key, String value) {
        tEnv.getConfig().set(key, value);
    }
}
