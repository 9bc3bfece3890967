package dev.gatun.planner.golden;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.planner.GatunOptions;
import dev.gatun.planner.rewrite.CalcDecision;
import dev.gatun.planner.rewrite.PlanReport;
import dev.gatun.planner.runtime.NativeCalcSpec;
import dev.gatun.planner.testing.Queries;
import dev.gatun.planner.testing.SharedMiniCluster;
import dev.gatun.planner.testing.TestRowsFactory;
import dev.gatun.transpose.entry.BatchWriter;
import dev.gatun.transpose.types.TypeMapping;
import io.substrait.proto.ExtendedExpression;
import io.substrait.proto.SimpleExtensionDeclaration;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.conversion.DataStructureConverter;
import org.apache.flink.table.data.conversion.DataStructureConverters;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden plans: each case's Calc is planned through the real path (Flink SQL → planner →
 * CalcTranslator), and its Substrait bytes, Arrow schemas, input rows and the output stock Flink
 * computes are written to native/tests/golden/CASE.json, which native/tests/c_abi/golden.rs
 * evaluates in Rust. The test fails when a committed golden differs from what Java builds now;
 * regenerate with {@value #UPDATE}=true and commit the files. A second test checks that the
 * goldens cover every type of docs/native.md and every function of functions.json.
 */
@ExtendWith(LeakCheckExtension.class)
@ExtendWith(SharedMiniCluster.class)
class GoldenPlansTest {
    static final String UPDATE = "gatun.golden.update";
    static final Path DIR = Path.of("..", "native", "tests", "golden");
    private static final Path FUNCTIONS = Path.of("..", "native", "admission", "functions.json");
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static Queries q;
    private static final TypeMapping TYPES = new TypeMapping(true);

    /** name → SQL over table {@code g} ({@link GoldenTable}). */
    static Stream<String[]> cases() {
        return Stream.of(
                // one per type: read, written back, tested for NULL
                c("type_tinyint", "SELECT id, tiny, tiny IS NULL FROM g"),
                c("type_smallint", "SELECT id, small, small IS NULL FROM g"),
                c("type_int", "SELECT id, i, i IS NULL FROM g"),
                c("type_bigint", "SELECT id, big, big IS NULL FROM g"),
                c("type_boolean", "SELECT id, flag, flag IS NULL FROM g"),
                c("type_float", "SELECT id, f, f IS NULL FROM g"),
                c("type_double", "SELECT id, d, d IS NULL FROM g"),
                c("type_decimal", "SELECT id, amt, amt IS NULL FROM g"),
                c("type_char", "SELECT id, ch, ch IS NULL FROM g"),
                c("type_string", "SELECT id, s, s IS NULL FROM g"),
                c("type_binary", "SELECT id, bin, bin IS NULL FROM g"),
                c("type_varbinary", "SELECT id, vb, vb IS NULL FROM g"),
                c("type_date", "SELECT id, dy, dy IS NULL FROM g"),
                c("type_time", "SELECT id, tm, tm IS NULL FROM g"),
                c("type_timestamp3", "SELECT id, ts3, ts3 IS NULL FROM g"),
                c("type_timestamp6", "SELECT id, ts6, ts6 IS NULL FROM g"),
                c("type_timestamp9", "SELECT id, ts9, ts9 IS NULL FROM g"),
                c("type_timestamp_ltz", "SELECT id, ltz, ltz IS NULL FROM g"),
                c("type_array", "SELECT id, arr, arr IS NULL FROM g"),
                c("type_map", "SELECT id, m, m IS NULL FROM g"),
                c("type_map_nullable_keys", "SELECT id, mn, mn IS NULL FROM g"),
                c("type_multiset", "SELECT id, ms, ms IS NULL FROM g"),
                c("type_row", "SELECT id, r, r IS NULL FROM g"),
                c("row_fields", "SELECT id, g.r.x, g.r.y, g.r.x + 1 FROM g"),
                // functions
                c("logic", "SELECT id, flag AND i > 0, flag OR i > 0, NOT flag FROM g"),
                c("truth_tests", "SELECT id, flag IS TRUE, flag IS FALSE, flag IS NOT TRUE, flag IS NOT FALSE,"
                        + " flag IS UNKNOWN, flag IS NOT UNKNOWN FROM g"),
                c("distinct", "SELECT id, i IS DISTINCT FROM 3, i IS NOT DISTINCT FROM CAST(small AS INT) FROM g"),
                c("null_tests", "SELECT id, s IS NULL, s IS NOT NULL FROM g"),
                c("compare_integers", "SELECT id, i = 3, i <> 3, i < 3, i <= 3, i > 3, i >= 3 FROM g"),
                c("compare_doubles", "SELECT id, d = 1.5E0, d <> 0.0E0, d < 2.0E0, d <= 1.5E0, d > 0.0E0,"
                        + " d >= 0.0E0 FROM g"),
                // FLOAT/DOUBLE against DECIMAL orders by Double.compare (gatun_flink_double_compare)
                c("compare_double_decimal", "SELECT id, d > amt, amt <= f, d < 1.5, f >= -0.0 FROM g"),
                c("compare_others", "SELECT id, s = 'apple', s < 'b', amt > 1.5, ts3 >= TIMESTAMP '2020-01-01 00:00:00',"
                        + " dy < DATE '2000-01-01' FROM g"),
                c("arith_integers", "SELECT id, i + 1, big - 5, small * tiny, i / 7, big % 5, MOD(i, 3), -i,"
                        + " ABS(big) FROM g"),
                c("arith_doubles", "SELECT id, d + 1.0E0, d - 1.25E0, d * d, d / 3, -d, ABS(d), f * f FROM g"),
                c("arith_decimals", "SELECT id, amt + 1, amt - amt, amt * amt, amt / 3, MOD(amt, 2), -amt,"
                        + " ABS(amt) FROM g"),
                c("case_coalesce_if", "SELECT id, CASE WHEN i > 0 THEN 'pos' WHEN i < 0 THEN 'neg' ELSE 'zero' END,"
                        + " COALESCE(i, CAST(small AS INT), 0), IF(flag, s, 'none'),"
                        + " CASE WHEN i <> 0 THEN 100 / i ELSE -1 END FROM g"),
                c("guarded_filter", "SELECT id FROM g WHERE i <> 0 AND 100 / i > 2"),
                c("strings", "SELECT id, UPPER(s), CHAR_LENGTH(s), s || '!', CONCAT(s, '-', ch),"
                        + " SUBSTRING(s, 2), SUBSTRING(s, 2, 3), POSITION('a' IN s), REPLACE(s, 'a', 'AA') FROM g"),
                // the final sigma follows Java's word boundaries: 'ΌΣΟΣ007abc' lowers to 'όσοσ007abc'
                c("lower", "SELECT id, LOWER(s), LOWER(CONCAT(s, 'ΑΣ')), LOWER(CONCAT('ΌΣΟΣ007', s)) FROM g"),
                c("trim", "SELECT id, TRIM(s), TRIM(LEADING 'x' FROM s), TRIM(TRAILING 'x' FROM s) FROM g"),
                c("like", "SELECT id, s LIKE '%a%', s LIKE 'a!_%' ESCAPE '!', s NOT LIKE '_b%' FROM g"),
                // the pattern is Java's; Rust translates it once per plan
                c("regexp_extract_split_index", "SELECT id, REGEXP_EXTRACT(s, '(a|^)([^a])', 2), REGEXP_EXTRACT(s, '.$'),"
                        + " REGEXP_EXTRACT(s, '(', i), SPLIT_INDEX(s, 'a', 1), SPLIT_INDEX(s, '', 0), SPLIT_INDEX(ch, 32, tiny)"
                        + " FROM g"),
                c("casts", "SELECT id, CAST(i AS BIGINT), CAST(i AS DOUBLE), CAST(d AS INT), CAST(amt AS INT),"
                        + " CAST(i AS STRING), CAST(d AS STRING), CAST(amt AS STRING), CAST(ts3 AS DATE),"
                        + " CAST(i AS DECIMAL(12, 3)), TRY_CAST(s AS INT) FROM g"),
                c("temporal", "SELECT id, EXTRACT(YEAR FROM ts3), EXTRACT(HOUR FROM ts3), MONTH(dy),"
                        + " DAYOFWEEK(ts6), SECOND(tm), FLOOR(ts3 TO HOUR), CEIL(ts3 TO DAY), FLOOR(ts6 TO MONTH)"
                        + " FROM g"),
                // the watermark expressions of rowtime DDLs: TIMESTAMP/LTZ minus a DAY TO SECOND literal
                c("date_format", "SELECT id, DATE_FORMAT(ts3, 'yyyy-MM-dd HH:mm:ss.SSS'), DATE_FORMAT(ts6, 'yy/M/d')"
                        + " FROM g"),
                c("timestamp_plus_interval", "SELECT id, ts3 - INTERVAL '5' SECOND, ts6 + INTERVAL '1' HOUR,"
                        + " ltz - INTERVAL '0.250' SECOND, ts3 + INTERVAL '2 03:04:05.006' DAY TO SECOND FROM g"));
    }

    private static String[] c(String name, String sql) {
        return new String[] {name, sql};
    }

    @BeforeAll
    static void table() {
        q = new Queries();
        q.set(GatunOptions.NANOSECOND_TIMESTAMPS.key(), "true");
        q.sql("CREATE TEMPORARY TABLE g (" + GoldenTable.COLUMNS + ") " + TestRowsFactory.register(GoldenTable.rows()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void committedGoldenEqualsWhatJavaBuildsNow(String name, String sql) throws Exception {
        String golden = build(name, sql);
        Path file = DIR.resolve(name + ".json");
        if (Boolean.getBoolean(UPDATE)) {
            Files.createDirectories(DIR);
            Files.writeString(file, golden);
            return;
        }
        assertTrue(Files.exists(file), () -> "missing golden " + file.toAbsolutePath().normalize() + regenerate());
        assertEquals(Files.readString(file), golden, () -> "golden " + file.toAbsolutePath().normalize()
                + " differs from what Java builds now" + regenerate());
    }

    private static String regenerate() {
        return ". Regenerate with `bin/gatun mvn -B -ntp -o -q -pl planner-hooks -am verify -Dtest=GoldenPlansTest"
                + " -Dsurefire.failIfNoSpecifiedTests=false -D" + UPDATE + "=true`, check that"
                + " `cargo test golden` passes in native/ and commit native/tests/golden.";
    }

    private static String build(String name, String sql) throws Exception {
        NativeCalcSpec spec = plan(sql);
        List<String> input = new ArrayList<>();
        List<RowData> rows = GoldenTable.rows();
        for (RowData row : rows) {
            ArrayNode values = JsonNodeFactory.instance.arrayNode();
            for (int[] path : spec.readPaths()) {
                values.add(GoldenValues.leaf(row, spec.inputType(), path, TYPES));
            }
            input.add(MAPPER.writeValueAsString(values));
        }
        List<String> expected = new ArrayList<>();
        for (RowData row : stock(sql)) {
            ArrayNode values = JsonNodeFactory.instance.arrayNode();
            RowType out = spec.outputType();
            for (int i = 0; i < out.getFieldCount(); i++) {
                values.add(GoldenValues.value(RowData.createFieldGetter(out.getTypeAt(i), i).getFieldOrNull(row),
                        out.getTypeAt(i), TYPES));
            }
            expected.add(MAPPER.writeValueAsString(values));
        }
        String inputSchema;
        try (NativeAllocator allocator = NativeAllocator.create("golden", Long.MAX_VALUE);
             BatchWriter writer = new BatchWriter(spec.inputType(), spec.readPaths(), TYPES, 1,
                     spec.insertOnlyInput(), allocator)) {
            inputSchema = MAPPER.writeValueAsString(GoldenValues.fields(writer.schema().fields()));
        }
        String outputSchema = MAPPER.writeValueAsString(GoldenValues.fields(TYPES.fields(spec.outputType())));
        return "{\n"
                + "  \"case\": " + MAPPER.writeValueAsString(name) + ",\n"
                + "  \"sql\": " + MAPPER.writeValueAsString(sql) + ",\n"
                + "  \"substrait_spec\": " + MAPPER.writeValueAsString(io.substrait.SubstraitVersion.VERSION) + ",\n"
                + "  \"plan\": \"" + Base64.getEncoder().encodeToString(spec.substraitPlan()) + "\",\n"
                + "  \"input_schema\": " + inputSchema + ",\n"
                + "  \"output_schema\": " + outputSchema + ",\n"
                + "  \"input\": " + lines(input) + ",\n"
                + "  \"expected\": " + lines(expected) + "\n"
                + "}\n";
    }

    private static String lines(List<String> rows) {
        return rows.isEmpty() ? "[]" : "[\n    " + String.join(",\n    ", rows) + "\n  ]";
    }

    /** The Calc's spec as the planner builds it; every Calc of the query must go native. */
    private static NativeCalcSpec plan(String sql) {
        PlanReport report = PlanReport.start();
        try {
            q.env().explainSql(sql);
        } finally {
            report.stop();
        }
        List<CalcDecision> decisions = report.decisions();
        assertFalse(decisions.isEmpty(), "no Calc planned for " + sql);
        for (CalcDecision d : decisions) {
            assertTrue(d.isNative(), () -> sql + ": " + decisions);
        }
        NativeCalcSpec spec = decisions.get(0).spec();
        for (CalcDecision d : decisions) {
            assertEquals(spec, d.spec(), () -> sql + ": more than one native Calc " + decisions);
        }
        return spec;
    }

    /** The query's rows as stock Flink computes them, in output order, as internal data. */
    private static List<RowData> stock(String sql) throws Exception {
        q.env().getConfig().set(GatunOptions.NATIVE_ENABLED, false);
        try {
            TableResult result = q.env().executeSql(sql);
            DataStructureConverter<Object, Object> converter =
                    DataStructureConverters.getConverter(result.getResolvedSchema().toPhysicalRowDataType());
            converter.open(GoldenPlansTest.class.getClassLoader());
            List<RowData> rows = new ArrayList<>();
            try (CloseableIterator<Row> it = result.collect()) {
                it.forEachRemaining(r -> rows.add((RowData) converter.toInternalOrNull(r)));
            }
            result.getJobClient().orElseThrow().getJobExecutionResult().get();
            return rows;
        } finally {
            q.env().getConfig().set(GatunOptions.NATIVE_ENABLED, true);
        }
    }

    @Test
    void goldensCoverEveryTypeAndEveryAdmittedFunctionAndNothingStale() throws IOException {
        Set<String> caseNames = new TreeSet<>();
        cases().forEach(c -> caseNames.add(c[0]));
        Set<String> files = new TreeSet<>();
        Set<String> functions = new TreeSet<>();
        Set<String> types = new TreeSet<>();
        try (Stream<Path> list = Files.list(DIR)) {
            for (Path p : list.filter(f -> f.toString().endsWith(".json")).toList()) {
                files.add(p.getFileName().toString().replaceFirst("\\.json$", ""));
                JsonNode golden = MAPPER.readTree(Files.readString(p, StandardCharsets.UTF_8));
                ExtendedExpression plan = ExtendedExpression.parseFrom(Base64.getDecoder().decode(golden.get("plan").asText()));
                for (SimpleExtensionDeclaration e : plan.getExtensionsList()) {
                    if (e.hasExtensionFunction()) {
                        functions.add(e.getExtensionFunction().getName().split(":")[0]);
                    }
                }
                golden.get("input_schema").forEach(f -> typeKeys(f, types));
                golden.get("output_schema").forEach(f -> typeKeys(f, types));
            }
        }
        assertEquals(caseNames, files, "golden files vs cases (stale or missing files)" + regenerate());
        Set<String> admitted = new TreeSet<>();
        // Entries marked "unadmitted" are never emitted by the planner, so they need no golden.
        MAPPER.readTree(Files.readString(FUNCTIONS)).get("functions").forEach(f -> {
            if (!f.has("unadmitted")) {
                admitted.add(f.get("name").asText());
            }
        });
        Set<String> uncovered = new TreeSet<>(admitted);
        uncovered.removeAll(functions);
        // Calcite rewrites these before the Calc (IS [NOT] DISTINCT FROM into CASE/OR/IS NULL, IS [NOT]
        // UNKNOWN into IS [NOT] NULL), so CalcTranslator never emits them; Rust's own tests cover them.
        uncovered.removeAll(Set.of("is_distinct_from", "is_not_distinct_from", "is_unknown", "is_not_unknown"));
        // Only a local aggregate's plan emits this (the NULL check of a WatermarkAssigner it absorbed):
        // MiniBatchFusionTest and LocalAggregateIslandTest run it.
        uncovered.remove("gatun_flink_check_rowtime");
        assertTrue(uncovered.isEmpty(), "admitted functions without a golden: " + uncovered);
        Set<String> required = Set.of("c", "s", "i", "l", "b", "f", "g", "d", "u", "z", "z[binary(n)]", "tdD", "ttm",
                "tsm:", "tsu:", "tsn:", "tsm:UTC", "+l", "+m", "+l[map entries]", "+l[multiset]", "+s");
        Set<String> missing = new TreeSet<>(required);
        missing.removeAll(types);
        assertTrue(missing.isEmpty(), "types without a golden: " + missing + " (covered: " + types + ")");
    }

    /** Format of {@code field} and its children, with Gatun's markers for BINARY(n), MAP entries, MULTISET. */
    private static void typeKeys(JsonNode field, Set<String> out) {
        String format = field.get("format").asText();
        String key = format.startsWith("d:") ? "d" : format;
        JsonNode md = field.get("metadata");
        if (md != null) {
            if (md.has(TypeMapping.BINARY_LENGTH)) {
                key += "[binary(n)]";
            } else if (md.has(TypeMapping.MULTISET)) {
                key += "[multiset]";
            } else if (md.has(TypeMapping.MAP_AS_ENTRIES)) {
                key += "[map entries]";
            }
            out.add(format.startsWith("d:") ? "d" : format);
        }
        out.add(key);
        JsonNode children = field.get("children");
        if (children != null) {
            children.forEach(c -> typeKeys(c, out));
        }
    }
}
