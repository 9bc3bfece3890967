package dev.gatun.planner.substrait;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.arrow.batch.RecordBatch;
import dev.gatun.arrow.memory.NativeAllocator;
import dev.gatun.arrow.operator.NativeOperator;
import dev.gatun.arrow.operator.OutputFormat;
import dev.gatun.arrow.testing.LeakCheckExtension;
import dev.gatun.arrow.types.Schema;
import dev.gatun.ffm.NativeException;
import dev.gatun.planner.testing.RegexPatterns;
import dev.gatun.transpose.entry.BatchWriter;
import dev.gatun.transpose.exit.ColumnarRowView;
import dev.gatun.transpose.types.TypeMapping;
import io.substrait.proto.Expression;
import io.substrait.proto.ExpressionReference;
import io.substrait.proto.ExtendedExpression;
import io.substrait.proto.FunctionArgument;
import io.substrait.proto.NamedStruct;
import io.substrait.proto.SimpleExtensionDeclaration;
import io.substrait.proto.Type;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.functions.SqlFunctionUtils;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * gatun_flink_regexp_extract and gatun_flink_split_index against Flink's own functions
 * ({@code SqlFunctionUtils.regexpExtract}, {@code SqlFunctionUtils.splitIndex}, which call
 * java.util.regex and commons-lang3) on many patterns and inputs, through the native library
 * directly (plans built here, one native Calc per pattern): the differential evidence that the
 * translated Java regex subset and the splitting agree with Flink. FunctionParityTest runs the same
 * functions through real Flink jobs.
 */
@ExtendWith(LeakCheckExtension.class)
class RegexpSplitDifferentialTest {
    private static final TypeMapping TYPES = new TypeMapping(false);
    private static final LogicalType STRING = new VarCharType(true, VarCharType.MAX_LENGTH);
    private static final LogicalType INT = new IntType(true);

    /** One row of inputs: the columns every plan here reads. */
    private record Row(String s, String sep, Integer i) {}

    @Test
    void regexpExtractEqualsFlinkOnRandomPatterns() {
        RegexPatterns gen = new RegexPatterns(0x5EED_2101L);
        List<String> patterns = new ArrayList<>(RegexPatterns.fixed());
        for (int i = 0; i < 2500; i++) {
            patterns.add(gen.pattern());
        }
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            rows.add(new Row(gen.input(), null, null));
        }
        rows.add(new Row(null, null, null));
        rows.add(new Row("", null, null));
        rows.add(new Row("https://www.nexmark.com/abc_de/fgh_ij/klm/item.htm?query=1&channel_id=1234567", null, null));

        int admitted = 0;
        int invalid = 0;
        long compared = 0;
        Map<String, Integer> refusals = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        for (String pattern : patterns) {
            int groups;
            try {
                groups = Pattern.compile(pattern).matcher("").groupCount();
            } catch (PatternSyntaxException e) {
                invalid++;
                continue;
            }
            List<Integer> indexes = new ArrayList<>(List.of(-1, 0));
            for (int g = 1; g <= groups + 1; g++) {
                indexes.add(g);
            }
            List<String> results;
            try {
                results = run(List.of(pattern), indexes, rows);
            } catch (NativeException e) {
                String m = e.getMessage();
                int at = m.indexOf("REGEXP_EXTRACT pattern uses ");
                if (at < 0 || !m.contains("which Gatun does not run natively")) {
                    problems.add(pattern + ": refused for another reason: " + m);
                } else {
                    refusals.merge(m.substring(at + 28, m.indexOf(", which Gatun", at)), 1, Integer::sum);
                }
                if (RegexPatterns.fixed().contains(pattern)) {
                    problems.add(pattern + ": a fixed pattern must be admitted: " + m);
                }
                continue;
            }
            admitted++;
            int k = 0;
            for (Row row : rows) {
                for (int index : indexes) {
                    String expected = row.s == null ? null : utf8(SqlFunctionUtils.regexpExtract(row.s, pattern, index));
                    String actual = results.get(k++);
                    compared++;
                    if (!java.util.Objects.equals(expected, actual) && problems.size() < 50) {
                        problems.add("REGEXP_EXTRACT(" + show(row.s) + ", " + show(pattern) + ", " + index + "): Flink "
                                + show(expected) + ", native " + show(actual));
                    }
                }
            }
        }
        assertTrue(problems.isEmpty(), problems.size() + " problems:\n" + String.join("\n", problems));
        // the generator mostly stays inside the subset: most valid patterns must run natively
        int valid = patterns.size() - invalid;
        assertTrue(admitted > valid * 0.6, admitted + " of " + valid + " valid patterns admitted; refusals " + refusals);
        assertTrue(compared > 500_000, "compared " + compared);
        System.out.printf("regexp differential: %d patterns (%d invalid in Java, %d admitted), %d values compared,"
                + " refusals %s%n", patterns.size(), invalid, admitted, compared, refusals);
    }

    /** A pattern Java rejects reaches Rust as a NULL pattern (CalcTranslator): NULL everywhere, as Flink. */
    @Test
    void aNullPatternGivesNullAndAnInvalidOneIsRefusedByRust() {
        List<Row> rows = List.of(new Row("abc", null, null), new Row(null, null, null));
        assertEquals(java.util.Arrays.asList(null, null), run(java.util.Collections.singletonList(null), List.of(0), rows));
        NativeException e = org.junit.jupiter.api.Assertions.assertThrows(NativeException.class,
                () -> run(List.of("(ab"), List.of(0), rows));
        assertTrue(e.getMessage().contains("REGEXP_EXTRACT pattern is not a valid Java regular expression (Unclosed group"),
                e.getMessage());
        assertTrue(SqlFunctionUtils.regexpExtract("abc", "(ab", 0) == null);
    }

    @Test
    void splitIndexEqualsFlink() {
        Random r = new Random(0x5EED_2201L);
        String[] pieces = {"a", "b", "é", "😀", "/", "//", " ", "  ", "\t", "\n", "\u3000", "\u00A0", "\u2007", "\u2028",
            "\u0085", "\u001C", "\u180E", "\u200B", "ab", "-!-", ",", "\u00FF", "x"};
        String[] separators = {"/", "//", " ", "", "ab", "a", "é", "😀", "-!-", "\u3000", ",", "b/", "aa", "\u00FF"};
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 4000; i++) {
            StringBuilder s = new StringBuilder();
            int n = r.nextInt(9);
            for (int j = 0; j < n; j++) {
                s.append(pieces[r.nextInt(pieces.length)]);
            }
            String sep = r.nextInt(20) == 0 ? null : separators[r.nextInt(separators.length)];
            Integer index = r.nextInt(20) == 0 ? null : r.nextInt(9) - 1;
            rows.add(new Row(r.nextInt(30) == 0 ? null : s.toString(), sep, index));
        }
        rows.add(new Row("https://www.nexmark.com/abc_de/fgh_ij/klm/item.htm?query=1", "/", 3));
        rows.add(new Row("aaa", "aa", 1));
        List<String> problems = new ArrayList<>();
        // a STRING separator column, and each character code as a literal
        List<String> byString = split(rows, null);
        for (int k = 0; k < rows.size(); k++) {
            Row row = rows.get(k);
            String expected = row.s == null || row.sep == null || row.i == null ? null
                    : SqlFunctionUtils.splitIndex(row.s, row.sep, row.i);
            if (!java.util.Objects.equals(expected, byString.get(k))) {
                problems.add("SPLIT_INDEX(" + show(row.s) + ", " + show(row.sep) + ", " + row.i + "): Flink "
                        + show(expected) + ", native " + show(byString.get(k)));
            }
        }
        for (int code : new int[] {-1, 0, 1, 32, 44, 47, 97, 0xE9, 0xFF, 256, 0x3000}) {
            List<String> byCode = split(rows, code);
            for (int k = 0; k < rows.size(); k++) {
                Row row = rows.get(k);
                String expected = row.s == null || row.i == null ? null : SqlFunctionUtils.splitIndex(row.s, code, row.i);
                if (!java.util.Objects.equals(expected, byCode.get(k))) {
                    problems.add("SPLIT_INDEX(" + show(row.s) + ", " + code + ", " + row.i + "): Flink "
                            + show(expected) + ", native " + show(byCode.get(k)));
                }
            }
        }
        assertTrue(problems.isEmpty(), problems.size() + " problems:\n"
                + String.join("\n", problems.subList(0, Math.min(40, problems.size()))));
    }

    /** SPLIT_INDEX with an empty separator on every BMP character: Java's Character.isWhitespace. */
    @Test
    void splitIndexWhitespaceIsJavas() {
        List<Row> rows = new ArrayList<>();
        for (int c = 0; c <= 0xFFFF; c++) {
            if (!Character.isSurrogate((char) c)) {
                rows.add(new Row("a" + (char) c + "b", "", 1));
            }
        }
        List<String> out = split(rows, null);
        List<String> problems = new ArrayList<>();
        for (int k = 0; k < rows.size(); k++) {
            String expected = SqlFunctionUtils.splitIndex(rows.get(k).s, "", 1);
            if (!java.util.Objects.equals(expected, out.get(k))) {
                problems.add(String.format("U+%04X: Flink %s, native %s", (int) rows.get(k).s.charAt(1), show(expected),
                        show(out.get(k))));
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    // ---- plans over (s STRING, sep STRING, i INT) ----

    /** REGEXP_EXTRACT(s, pattern, index) for every pattern × index; results row by row, projection by projection. */
    private static List<String> run(List<String> patterns, List<Integer> indexes, List<Row> rows) {
        List<Expression> projections = new ArrayList<>();
        for (String p : patterns) {
            Expression pattern = p == null ? Literals.typedNull(STRING) : Literals.string(p);
            for (int index : indexes) {
                projections.add(call("gatun_flink_regexp_extract", fieldRef(0), pattern, Literals.int32(index)));
            }
        }
        return evaluate(projections, rows);
    }

    /** SPLIT_INDEX(s, sep, i), or SPLIT_INDEX(s, code, i). */
    private static List<String> split(List<Row> rows, Integer code) {
        Expression sep = code == null ? fieldRef(1) : Literals.int32(code);
        return evaluate(List.of(call("gatun_flink_split_index", fieldRef(0), sep, fieldRef(2))), rows);
    }

    private static List<String> evaluate(List<Expression> projections, List<Row> rows) {
        RowType input = RowType.of(new LogicalType[] {STRING, STRING, INT}, new String[] {"s", "sep", "i"});
        LogicalType[] outTypes = new LogicalType[projections.size()];
        String[] outNames = new String[projections.size()];
        ExtendedExpression.Builder plan = ExtendedExpression.newBuilder().setBaseSchema(NamedStruct.newBuilder()
                .addNames("s").addNames("sep").addNames("i")
                .setStruct(Type.Struct.newBuilder().setNullability(Type.Nullability.NULLABILITY_REQUIRED)
                        .addTypes(SubstraitTypes.of(STRING)).addTypes(SubstraitTypes.of(STRING))
                        .addTypes(SubstraitTypes.of(INT))));
        for (int k = 0; k < projections.size(); k++) {
            outTypes[k] = STRING;
            outNames[k] = "o" + k;
            plan.addReferredExpr(ExpressionReference.newBuilder().setExpression(projections.get(k)).addOutputNames(outNames[k]));
        }
        for (String f : List.of("gatun_flink_regexp_extract", "gatun_flink_split_index")) {
            plan.addExtensions(SimpleExtensionDeclaration.newBuilder().setExtensionFunction(
                    SimpleExtensionDeclaration.ExtensionFunction.newBuilder().setFunctionAnchor(anchor(f)).setName(f)));
        }
        RowType output = RowType.of(outTypes, outNames);
        List<String> out = new ArrayList<>();
        int batchRows = 512;
        try (NativeAllocator allocator = NativeAllocator.create("differential", Long.MAX_VALUE);
             BatchWriter writer = new BatchWriter(input, List.of(new int[] {0}, new int[] {1}, new int[] {2}), TYPES,
                     batchRows, true, allocator);
             NativeOperator calc = NativeOperator.create(NativeOperator.Kind.CALC, plan.build().toByteArray(),
                     writer.schema(), new Schema(TYPES.fields(output), Map.of()), OutputFormat.ARROW, allocator)) {
            for (int from = 0; from < rows.size(); from += batchRows) {
                for (Row row : rows.subList(from, Math.min(rows.size(), from + batchRows))) {
                    writer.write(GenericRowData.of(string(row.s), string(row.sep), row.i));
                }
                try (RecordBatch result = calc.process(writer.finish(), null)) {
                    ColumnarRowView view = ColumnarRowView.over(result, output, TYPES);
                    for (int i = 0; i < view.rowCount(); i++) {
                        view.setRow(i);
                        for (int k = 0; k < projections.size(); k++) {
                            out.add(view.isNullAt(k) ? null : view.getString(k).toString());
                        }
                    }
                }
            }
        }
        return out;
    }

    private static int anchor(String function) {
        return function.equals("gatun_flink_regexp_extract") ? 1 : 2;
    }

    private static Expression call(String function, Expression... args) {
        Expression.ScalarFunction.Builder f = Expression.ScalarFunction.newBuilder()
                .setFunctionReference(anchor(function)).setOutputType(SubstraitTypes.of(STRING));
        for (Expression a : args) {
            f.addArguments(FunctionArgument.newBuilder().setValue(a));
        }
        return Expression.newBuilder().setScalarFunction(f).build();
    }

    private static Expression fieldRef(int column) {
        return Expression.newBuilder().setSelection(Expression.FieldReference.newBuilder()
                .setDirectReference(Expression.ReferenceSegment.newBuilder()
                        .setStructField(Expression.ReferenceSegment.StructField.newBuilder().setField(column)))
                .setRootReference(Expression.FieldReference.RootReference.getDefaultInstance())).build();
    }

    private static StringData string(String s) {
        return s == null ? null : StringData.fromString(s);
    }

    /** What Flink's string data makes of a Java result (UTF-8: an unpaired surrogate becomes '?'). */
    private static String utf8(String s) {
        return s == null ? null : new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
    }

    private static String show(String s) {
        if (s == null) {
            return "NULL";
        }
        StringBuilder sb = new StringBuilder("'");
        s.codePoints().forEach(cp -> {
            if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0) || cp == 0x2028 || cp == 0x2029) {
                sb.append(String.format("\\u%04X", cp));
            } else {
                sb.appendCodePoint(cp);
            }
        });
        return sb.append('\'').toString();
    }
}
