package dev.gatun.flink.job;

import dev.gatun.ffm.GatunLibrary;
import dev.gatun.ffm.NativeStats;
import dev.gatun.planner.Gatun;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * A Flink user's job, run by {@code GatunFlinkJarIT} in a fresh JVM whose class path is only
 * Flink's jars, the shaded gatun-flink jar and this class. Prints what it checked; any mismatch
 * ends the JVM with exit code 1.
 *
 * <p>Modes: {@code native} (started with --enable-native-access): the Calc must run as a native
 * island, results must equal the expected rows and stock Flink's, no native handle may stay live.
 * {@code stock} (the library cannot be loaded): enable reports false and the job runs on stock
 * Flink. {@code strict} (the same with gatun.native.strict=true): enable must throw.
 * {@code noflag} (started without the flag): enable must throw, ending the JVM.
 * {@code disabled} (without the flag, gatun.native.enabled=false): enable reports false, stock runs.
 */
public final class GatunSmokeJob {
    static final int ROWS = 1000;
    static final String QUERY = "SELECT auction, UPPER(CONCAT('bid-', CAST(auction AS STRING))) AS label,"
            + " price * 2 + 1 AS doubled, price * 0.908 AS euro,"
            + " CASE WHEN auction % 300 = 0 THEN 'big' ELSE 'small' END AS band"
            + " FROM bids WHERE auction % 100 = 0";

    /** What QUERY must return over {@link #createBids}' rows, computed independently of Flink. */
    static List<String> expected() {
        List<String> rows = new ArrayList<>();
        for (long auction = 100; auction <= ROWS; auction += 100) {
            long price = auction;
            BigDecimal euro = BigDecimal.valueOf(price).multiply(new BigDecimal("0.908"));
            rows.add("+I[" + auction + ", BID-" + auction + ", " + (price * 2 + 1) + ", " + euro.toPlainString()
                    + ", " + (auction % 300 == 0 ? "big" : "small") + "]");
        }
        rows.sort(null);
        return rows;
    }

    private GatunSmokeJob() {}

    public static void main(String[] args) throws Exception {
        String mode = args.length == 1 ? args[0] : "";
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.getConfig().set("parallelism.default", "1");
        // The demo-sized cost rule keeps such a small Calc on Flink unless forced.
        tEnv.getConfig().set("gatun.native.force", "true");
        switch (mode) {
            case "native" -> runNative(tEnv);
            case "stock" -> runStock(tEnv);
            case "disabled" -> {
                tEnv.getConfig().set("gatun.native.enabled", "false");
                runStock(tEnv);
            }
            case "noflag" -> {
                Gatun.enable(tEnv);
                fail("Gatun.enable returned although native access is off");
            }
            case "strict" -> {
                tEnv.getConfig().set("gatun.native.strict", "true");
                Gatun.enable(tEnv);
                fail("Gatun.enable returned although the library is unavailable and gatun.native.strict is set");
            }
            default -> fail("usage: GatunSmokeJob native|stock|strict|noflag|disabled, got " + String.join(" ", args));
        }
    }

    private static void runNative(TableEnvironment tEnv) throws Exception {
        check(Gatun.enable(tEnv), "Gatun.enable reported the native library unusable");
        createBids(tEnv);
        String plan = Gatun.explain(tEnv, QUERY);
        System.out.println(plan);
        String gatun = plan.substring(plan.indexOf("== Gatun =="));
        check(plan.contains("NativeCalc(") && gatun.contains("native: ") && !gatun.contains("stock ("),
                "no native island in the plan");
        check(expected().size() == 10, "the expected rows are " + expected());
        List<String> nativeRows = collect(tEnv, QUERY);
        check(expected().equals(nativeRows), "native rows " + nativeRows + " differ from " + expected());
        tEnv.getConfig().set("gatun.native.enabled", "false");
        List<String> stockRows = collect(tEnv, QUERY);
        check(expected().equals(stockRows), "stock rows " + stockRows + " differ from " + expected());
        NativeStats stats = GatunLibrary.stats();
        check(stats.hasNoLiveResources(), "native resources live after the jobs: " + stats.describeLiveResources());
        System.out.println("GATUN-SMOKE native OK: " + nativeRows.size() + " rows, library " + GatunLibrary.path()
                + ", " + stats.describeLiveResources());
    }

    private static void runStock(TableEnvironment tEnv) throws Exception {
        check(!Gatun.enable(tEnv), "Gatun.enable reported success although the library cannot be used");
        createBids(tEnv);
        String plan = Gatun.explain(tEnv, QUERY);
        check(!plan.contains("NativeCalc("), "a native island was planned although Gatun is not enabled:\n" + plan);
        List<String> rows = collect(tEnv, QUERY);
        check(expected().equals(rows), "stock rows " + rows + " differ from " + expected());
        System.out.println("GATUN-SMOKE stock OK: " + rows.size() + " rows");
    }

    /** A bounded datagen table (Flink's own connector): auction and price both count 1..ROWS. */
    private static void createBids(TableEnvironment tEnv) {
        tEnv.executeSql("CREATE TEMPORARY TABLE bids (auction BIGINT, price BIGINT) WITH ('connector' = 'datagen',"
                + " 'fields.auction.kind' = 'sequence', 'fields.auction.start' = '1', 'fields.auction.end' = '" + ROWS + "',"
                + " 'fields.price.kind' = 'sequence', 'fields.price.start' = '1', 'fields.price.end' = '" + ROWS + "')");
    }

    private static List<String> collect(TableEnvironment tEnv, String sql) throws Exception {
        TableResult result = tEnv.executeSql(sql);
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = result.collect()) {
            it.forEachRemaining(r -> rows.add(r.toString()));
        }
        result.getJobClient().orElseThrow().getJobExecutionResult().get();
        rows.sort(null);
        return rows;
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            fail(what);
        }
    }

    private static void fail(String what) {
        System.err.println("GATUN-SMOKE FAILED: " + what);
        System.exit(1);
    }
}
