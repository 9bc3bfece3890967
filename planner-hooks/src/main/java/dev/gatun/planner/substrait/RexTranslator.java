package dev.gatun.planner.substrait;

import static dev.gatun.planner.substrait.Kinds.isBoolean;
import static dev.gatun.planner.substrait.Kinds.isDecimal;
import static dev.gatun.planner.substrait.Kinds.isFloat;
import static dev.gatun.planner.substrait.Kinds.isInteger;
import static dev.gatun.planner.substrait.Kinds.isNumeric;
import static dev.gatun.planner.substrait.Kinds.isString;
import static dev.gatun.planner.substrait.Kinds.sameArrow;

import dev.gatun.transpose.types.TypeMapping;
import dev.gatun.transpose.types.TypeMappingException;
import io.substrait.proto.Expression;
import io.substrait.proto.FunctionArgument;
import io.substrait.proto.NamedStruct;
import io.substrait.proto.SimpleExtensionDeclaration;
import io.substrait.proto.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlLikeOperator;
import org.apache.calcite.sql.fun.SqlTrimFunction;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.table.types.logical.utils.LogicalTypeMerging;

/**
 * Translates Flink expressions (Calcite {@code RexNode}s over an island's pruned input) into
 * Substrait expressions following native/admission/README.md, for every plan kind: the Calc's
 * projections and filter ({@link CalcTranslator}), an aggregate's keys, arguments and FILTERs
 * ({@link AggregateTranslator}). Function anchors accumulate in one translator, so one plan's
 * expressions share its {@link #extensions()}.
 *
 * <p>Rust never coerces, so every operand reaches its function with the exact type the function
 * admits: the casts Flink's generated code performs implicitly are emitted here. Anything without
 * an admitted translation throws {@link NotAdmittedException} naming the function and its types.
 */
public final class RexTranslator {
    private final RowType inputType;
    private final List<int[]> readPaths;
    private final TypeMapping types;
    private final Set<String> disabled;
    private final AdmittedFunctions admitted = AdmittedFunctions.get();
    private final Map<String, Integer> anchors = new LinkedHashMap<>();

    /** A translated expression and the Flink type of its value (its Arrow type is what Rust sees). */
    public record Typed(Expression expr, LogicalType type) {}

    public RexTranslator(RowType inputType, List<int[]> readPaths, TypeMapping types,
                         List<String> disabledFunctions) {
        this.inputType = inputType;
        this.readPaths = List.copyOf(readPaths);
        this.types = types;
        this.disabled = disabledFunctions.stream().map(s -> s.trim().toUpperCase(Locale.ROOT))
                .collect(Collectors.toCollection(HashSet::new));
    }

    /** The function declarations of every expression translated so far, by anchor. */
    public List<SimpleExtensionDeclaration> extensions() {
        List<SimpleExtensionDeclaration> out = new ArrayList<>();
        anchors.forEach((name, anchor) -> out.add(SimpleExtensionDeclaration.newBuilder()
                .setExtensionFunction(SimpleExtensionDeclaration.ExtensionFunction.newBuilder()
                        .setFunctionAnchor(anchor).setName(name)).build()));
        return out;
    }

    /**
     * A function anchor of this plan for {@code name} (a Substrait compound name), shared with the
     * scalar functions so anchors stay unique; aggregate functions are declared through it.
     */
    public int anchor(String name) {
        return anchors.computeIfAbsent(name, n -> anchors.size() + 1);
    }

    /** One column per read path, named and typed as {@code BatchWriter.schema()} has it. */
    public NamedStruct baseSchema() {
        NamedStruct.Builder ns = NamedStruct.newBuilder();
        Type.Struct.Builder struct = Type.Struct.newBuilder().setNullability(Type.Nullability.NULLABILITY_REQUIRED);
        for (int[] path : readPaths) {
            LogicalType type = inputType;
            StringBuilder name = new StringBuilder();
            boolean nullable = false;
            for (int d = 0; d < path.length; d++) {
                RowType row = (RowType) type;
                name.append(d == 0 ? "" : ".").append(row.getFieldNames().get(path[d]));
                type = row.getTypeAt(path[d]);
                nullable |= type.isNullable();
            }
            type = type.copy(nullable);
            try {
                types.field(name.toString(), type);
            } catch (TypeMappingException e) {
                throw new NotAdmittedException(e.getMessage());
            }
            ns.addNames(name.toString());
            List<String> nested = new ArrayList<>();
            SubstraitTypes.nestedNames(type, nested);
            ns.addAllNames(nested);
            struct.addTypes(SubstraitTypes.of(type));
        }
        return ns.setStruct(struct).build();
    }

    /** {@code node} as a Substrait expression over {@link #baseSchema()}, with its Flink type. */
    public Typed translate(RexNode node) {
        if (node instanceof RexInputRef || node instanceof RexFieldAccess) {
            return column(node);
        }
        if (node instanceof RexLiteral lit) {
            LogicalType type = logical(lit);
            return new Typed(Literals.of(lit, type), type);
        }
        if (node instanceof RexCall call) {
            return call(call);
        }
        throw new NotAdmittedException("expression " + node + " (" + node.getKind() + ") is not admitted natively");
    }

    private Typed column(RexNode node) {
        int[] path = ReadPaths.path(node);
        if (path == null) {
            throw new NotAdmittedException("field access " + node + " on a computed value is not admitted natively");
        }
        for (int i = 0; i < readPaths.size(); i++) {
            if (Arrays.equals(readPaths.get(i), path)) {
                return new Typed(fieldRef(i), logical(node));
            }
        }
        throw new NotAdmittedException("field access " + node + " into a ROW column that is also read whole"
                + " is not admitted natively (datafusion-substrait reads no nested field references)");
    }

    private Typed call(RexCall c) {
        String fn = c.getOperator().getName().toUpperCase(Locale.ROOT);
        SqlKind kind = c.getKind();
        if (disabled.contains(fn) || disabled.contains(kind.name())) {
            throw new NotAdmittedException(fn + " is disabled by gatun.functions.disabled");
        }
        List<RexNode> ops = c.getOperands();
        LogicalType type = logical(c);
        return switch (kind) {
            case AND, OR -> logic(c, kind == SqlKind.AND ? "and" : "or");
            case NOT -> new Typed(fn("not", type, bool(ops.get(0), c)), type);
            case IS_TRUE, IS_FALSE, IS_NOT_TRUE, IS_NOT_FALSE ->
                    new Typed(fn(kind.name().toLowerCase(Locale.ROOT), type, bool(ops.get(0), c)), type);
            case IS_NULL, IS_NOT_NULL ->
                    new Typed(fn(kind.name().toLowerCase(Locale.ROOT), type, translate(ops.get(0)).expr), type);
            case EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL,
                 IS_DISTINCT_FROM, IS_NOT_DISTINCT_FROM -> comparison(c, kind, type);
            case PLUS, MINUS, TIMES, DIVIDE, MOD -> arithmetic(c, kind, type);
            case MINUS_PREFIX -> numericUnary(c, "gatun_flink_negate", type);
            case PLUS_PREFIX -> translate(ops.get(0));
            case CASE -> caseWhen(c, type);
            case COALESCE -> coalesce(c, type);
            case CAST -> cast(c, translate(ops.get(0)), type, "gatun_flink_cast");
            case LIKE -> like(c, type);
            case POSITION -> strings(c, "gatun_flink_position", type, 2);
            case TRIM -> trim(c, type);
            case EXTRACT -> extract(c, type);
            case FLOOR, CEIL -> floorCeil(c, kind == SqlKind.FLOOR ? "gatun_flink_floor" : "gatun_flink_ceil", type);
            default -> byName(c, fn, type);
        };
    }

    private Typed byName(RexCall c, String fn, LogicalType type) {
        return switch (fn) {
            case "CHAR_LENGTH", "CHARACTER_LENGTH" -> strings(c, "gatun_flink_char_length", type, 1);
            case "UPPER" -> caseMapping(c, "gatun_flink_upper", type, false);
            case "LOWER" -> caseMapping(c, "gatun_flink_lower", type, true);
            case "REPLACE" -> strings(c, "gatun_flink_replace", type, 3);
            case "REGEXP_EXTRACT" -> regexpExtract(c, type);
            case "SPLIT_INDEX" -> splitIndex(c, type);
            case "DATE_FORMAT" -> dateFormat(c, type);
            case "CONCAT", "||" -> strings(c, "gatun_flink_concat", type, c.getOperands().size());
            case "SUBSTRING", "SUBSTR" -> substring(c, type);
            case "LTRIM" -> trimFunction(c, "gatun_flink_trim_leading", type);
            case "RTRIM" -> trimFunction(c, "gatun_flink_trim_trailing", type);
            case "ABS" -> numericUnary(c, "gatun_flink_abs", type);
            case "COALESCE" -> coalesce(c, type);
            case "IF" -> caseWhen(c, type); // IF(cond, then, else) has CASE's operand layout
            case "TRY_CAST" -> cast(c, translate(c.getOperands().get(0)), type, "gatun_flink_try_cast");
            default -> throw refused(c, "has no native translation");
        };
    }

    /** A WatermarkAssigner's expression: a TIMESTAMP or TIMESTAMP_LTZ of at most millisecond precision. */
    public Typed millisecondTimestamp(RexNode node, String what) {
        Typed t = translate(node);
        boolean millis = switch (t.type.getTypeRoot()) {
            case TIMESTAMP_WITHOUT_TIME_ZONE -> ((TimestampType) t.type).getPrecision() <= 3;
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> ((LocalZonedTimestampType) t.type).getPrecision() <= 3;
            default -> false;
        };
        if (!millis) {
            throw new NotAdmittedException(what + " is "
                    + t.type.asSummaryString() + ", not a TIMESTAMP of at most millisecond precision");
        }
        return t;
    }

    // ---- logic and comparisons ----

    /**
     * The island's filter when it also owes a WatermarkAssigner's NULL check of the rowtime
     * ({@code gatun_flink_check_rowtime}, TRUE or an error, evaluated first over every row), AND
     * the {@code condition} if any.
     */
    public Typed rowtimeChecked(RexNode rowtime, RexNode condition) {
        Typed t = translate(rowtime);
        if (!isTimestamp(t.type)) {
            throw new NotAdmittedException("the rowtime is " + t.type.asSummaryString() + ", not a timestamp");
        }
        Expression check = fn("gatun_flink_check_rowtime", new BooleanType(false), t.expr);
        if (condition == null) {
            return new Typed(check, new BooleanType(false));
        }
        Typed c = translate(condition);
        requireBoolean(c, "the filter");
        return new Typed(fn("and", c.type, check, c.expr), c.type);
    }

    private Typed logic(RexCall c, String name) {
        Expression acc = bool(c.getOperands().get(0), c);
        for (int i = 1; i < c.getOperands().size(); i++) {
            acc = fn(name, new BooleanType(), acc, bool(c.getOperands().get(i), c));
        }
        return new Typed(acc, logical(c));
    }

    private Expression bool(RexNode node, RexCall parent) {
        Typed t = translate(node);
        requireBoolean(t, parent.getOperator().getName());
        return t.expr;
    }

    static void requireBoolean(Typed t, String what) {
        if (!isBoolean(t.type) && t.type.getTypeRoot() != LogicalTypeRoot.NULL) {
            throw new NotAdmittedException(what + " of " + t.type.asSummaryString() + " is not admitted natively");
        }
    }

    private Typed comparison(RexCall c, SqlKind kind, LogicalType type) {
        Typed a = translate(c.getOperands().get(0));
        Typed b = translate(c.getOperands().get(1));
        if ((isFloat(a.type) && isDecimal(b.type)) || (isDecimal(a.type) && isFloat(b.type))) {
            return floatWithDecimal(c, kind, a, b, type);
        }
        Typed[] ops = common(c, a, b);
        String name = comparisonName(kind);
        LogicalType t = ops[0].type;
        if (isFloat(t)) {
            // Arrow orders floats totally; Flink compares them as Java primitives
            if (name.startsWith("is_")) {
                throw refused(c, "on floating point is not admitted natively");
            }
            name = "gatun_flink_" + name;
        } else if (!orderable(t)) {
            throw refused(c, "is not admitted natively for this type");
        }
        return new Typed(fn(name, type, ops[0].expr, ops[1].expr), type);
    }

    /** The Substrait name of a comparison (= <> < <= > >= IS [NOT] DISTINCT FROM). */
    private static String comparisonName(SqlKind kind) {
        return switch (kind) {
            case EQUALS -> "equal";
            case NOT_EQUALS -> "not_equal";
            case LESS_THAN -> "lt";
            case LESS_THAN_OR_EQUAL -> "lte";
            case GREATER_THAN -> "gt";
            case GREATER_THAN_OR_EQUAL -> "gte";
            case IS_DISTINCT_FROM -> "is_distinct_from";
            default -> "is_not_distinct_from";
        };
    }

    /**
     * FLOAT/DOUBLE against DECIMAL: Flink's generated code calls DecimalDataUtils.compare(DecimalData,
     * double), which is Double.compare(doubleValue(decimal), x): a total order (every NaN equal and
     * above +Infinity, -0.0 below 0.0), unlike the Java-primitive comparisons of two floats. Natively:
     * the decimal through gatun_flink_cast to DOUBLE (doubleValue), the float widened, then
     * gatun_flink_double_compare(x, y) compared with 0.
     */
    private Typed floatWithDecimal(RexCall c, SqlKind kind, Typed a, Typed b, LogicalType type) {
        String name = comparisonName(kind);
        if (name.startsWith("is_")) {
            throw refused(c, "compares a floating-point value with a DECIMAL; not admitted natively");
        }
        Typed x = implicit(c, a, new DoubleType(a.type.isNullable()));
        Typed y = implicit(c, b, new DoubleType(b.type.isNullable()));
        IntType order = new IntType(a.type.isNullable() || b.type.isNullable());
        Expression compared = fn("gatun_flink_double_compare", order, x.expr, y.expr);
        return new Typed(fn(name, type, compared, Literals.int32(0)), type);
    }

    private static boolean orderable(LogicalType t) {
        return switch (t.getTypeRoot()) {
            case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL, CHAR, VARCHAR, DATE, TIME_WITHOUT_TIME_ZONE,
                 TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE, INTERVAL_YEAR_MONTH,
                 INTERVAL_DAY_TIME -> true;
            default -> false;
        };
    }

    /** Both operands of a comparison at one type, the way Flink's generated code compares them. */
    private Typed[] common(RexCall c, Typed a, Typed b) {
        if (sameArrow(a.type, b.type)) {
            return new Typed[] {a, b};
        }
        LogicalType target = null;
        if (isNumeric(a.type) && isNumeric(b.type)) {
            target = commonNumeric(a.type, b.type);
        } else if (Kinds.timestampUnit(a.type) > 0 && a.type.getTypeRoot() == b.type.getTypeRoot()) {
            target = Kinds.timestampUnit(a.type) > Kinds.timestampUnit(b.type) ? a.type : b.type;
        } else if (a.type.getTypeRoot() == LogicalTypeRoot.NULL) {
            target = b.type;
        } else if (b.type.getTypeRoot() == LogicalTypeRoot.NULL) {
            target = a.type;
        }
        if (target == null) {
            throw refused(c, "of different types is not admitted natively");
        }
        return new Typed[] {implicit(c, a, target), implicit(c, b, target)};
    }

    /** Java's binary numeric promotion; decimals compare by value at a type that holds both exactly. */
    private LogicalType commonNumeric(LogicalType a, LogicalType b) {
        if (isDecimal(a) || isDecimal(b)) {
            if (isFloat(a) || isFloat(b)) {
                return null;
            }
            DecimalType da = isDecimal(a) ? (DecimalType) a : Kinds.naturalDecimal(a);
            DecimalType db = isDecimal(b) ? (DecimalType) b : Kinds.naturalDecimal(b);
            int scale = Math.max(da.getScale(), db.getScale());
            int digits = Math.max(da.getPrecision() - da.getScale(), db.getPrecision() - db.getScale());
            return digits + scale > DecimalType.MAX_PRECISION ? null : new DecimalType(digits + scale, scale);
        }
        for (LogicalTypeRoot r : List.of(LogicalTypeRoot.DOUBLE, LogicalTypeRoot.FLOAT)) {
            if (a.getTypeRoot() == r) {
                return a;
            }
            if (b.getTypeRoot() == r) {
                return b;
            }
        }
        return Kinds.intRank(a) >= Kinds.intRank(b) ? a : b;
    }

    // ---- arithmetic ----

    private Typed arithmetic(RexCall c, SqlKind kind, LogicalType result) {
        Typed temporal = timestampPlusInterval(c, kind, result);
        if (temporal != null) {
            return temporal;
        }
        Typed a = translate(c.getOperands().get(0));
        Typed b = translate(c.getOperands().get(1));
        if (!isNumeric(a.type) || !isNumeric(b.type) || !isNumeric(result)) {
            throw refused(c, "is not admitted natively (only numeric arithmetic is)");
        }
        if (isDecimal(result)) {
            return decimalArithmetic(c, kind, (DecimalType) result, a, b);
        }
        if ((isDecimal(a.type) || isDecimal(b.type)) && !isFloat(result)) {
            throw refused(c, "mixing DECIMAL into a " + result.asSummaryString() + " result is not admitted natively");
        }
        if (kind == SqlKind.MOD && !a.type.copy(true).equals(b.type.copy(true))) {
            return mixedModulo(c, a, b, result);
        }
        // Flink's generated code casts both operands to the result type, then applies the Java operator
        Expression l = implicit(c, a, result).expr;
        Expression r = implicit(c, b, result).expr;
        String name = switch (kind) {
            case PLUS -> "add";
            case MINUS -> "subtract";
            case TIMES -> "multiply";
            case DIVIDE -> "gatun_flink_divide";
            default -> "gatun_flink_mod";
        };
        return new Typed(fn(name, result, l, r), result);
    }

    /**
     * {@code ts + INTERVAL}, {@code INTERVAL + ts} and {@code ts - INTERVAL} with a TIMESTAMP or
     * TIMESTAMP_LTZ and an INTERVAL DAY TO SECOND literal (a watermark's {@code ts - INTERVAL '4'
     * SECOND}), as Flink computes it: the interval's milliseconds added to the millisecond part
     * ({@code gatun_flink_timestamp_plus_millis}); null when {@code c} is not that.
     */
    private Typed timestampPlusInterval(RexCall c, SqlKind kind, LogicalType result) {
        if (kind != SqlKind.PLUS && kind != SqlKind.MINUS || !isTimestamp(result)) {
            return null;
        }
        RexNode x = c.getOperands().get(0);
        RexNode y = c.getOperands().get(1);
        if (kind == SqlKind.PLUS && isDayTimeInterval(x)) {
            RexNode swap = x;
            x = y;
            y = swap;
        }
        if (!isTimestamp(logical(x)) || !isDayTimeInterval(y)) {
            return null;
        }
        if (!(y instanceof RexLiteral literal) || literal.isNull()) {
            throw refused(c, "is admitted natively only with an INTERVAL literal");
        }
        long millis = literal.getValueAs(java.math.BigDecimal.class).longValueExact();
        if (kind == SqlKind.MINUS) {
            if (millis == Long.MIN_VALUE) {
                throw refused(c, "with this interval is not admitted natively");
            }
            millis = -millis;
        }
        Typed ts = translate(x);
        if (!sameArrow(ts.type, result)) {
            throw refused(c, "of " + ts.type.asSummaryString() + " into " + result.asSummaryString()
                    + " is not admitted natively");
        }
        return new Typed(fn("gatun_flink_timestamp_plus_millis", result, ts.expr, Literals.int64(millis)), result);
    }

    private static boolean isTimestamp(LogicalType type) {
        return type.getTypeRoot() == LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE
                || type.getTypeRoot() == LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    }

    private static boolean isDayTimeInterval(RexNode node) {
        return logical(node).getTypeRoot() == LogicalTypeRoot.INTERVAL_DAY_TIME;
    }

    /**
     * {@code x % y} of two different types: Flink's generated code keeps the dividend's type, casts
     * the divisor to the result type, lets Java promote both, and casts the remainder to the result
     * type (so {@code BIGINT % INT} is computed in BIGINT, then narrowed).
     */
    private Typed mixedModulo(RexCall c, Typed a, Typed b, LogicalType result) {
        if (!isInteger(a.type) || !isInteger(b.type) || !isInteger(result)) {
            throw refused(c, "of mixed non-integer types is not admitted natively");
        }
        Typed divisor = implicit(c, b, result);
        LogicalType wide = Kinds.intRank(a.type) >= Kinds.intRank(result) ? a.type : result;
        Expression mod = fn("gatun_flink_mod", wide, implicit(c, a, wide).expr, implicit(c, divisor, wide).expr);
        return implicit(c, new Typed(mod, wide.copy(result.isNullable())), result);
    }

    private Typed decimalArithmetic(RexCall c, SqlKind kind, DecimalType result, Typed a, Typed b) {
        Typed[] ops = {a, b};
        for (int i = 0; i < 2; i++) {
            if (isInteger(ops[i].type)) {
                DecimalType exact = Kinds.naturalDecimal(ops[i].type);
                // Flink converts the integer to the result type, where a too large value becomes NULL
                if (result.getPrecision() - result.getScale() < digits(c.getOperands().get(i), exact)) {
                    throw refused(c, "would convert an integer operand to " + result.asSummaryString()
                            + ", which may not hold it; not admitted natively");
                }
                ops[i] = implicit(c, ops[i], exact);
            } else if (!isDecimal(ops[i].type)) {
                throw refused(c, "is not admitted natively");
            }
        }
        DecimalType da = (DecimalType) ops[0].type;
        DecimalType db = (DecimalType) ops[1].type;
        int p1 = da.getPrecision(), s1 = da.getScale(), p2 = db.getPrecision(), s2 = db.getScale();
        String name;
        DecimalType rust;
        switch (kind) {
            case PLUS -> { name = "gatun_flink_add"; rust = LogicalTypeMerging.findAdditionDecimalType(p1, s1, p2, s2); }
            case MINUS -> { name = "gatun_flink_subtract"; rust = LogicalTypeMerging.findAdditionDecimalType(p1, s1, p2, s2); }
            case TIMES -> { name = "gatun_flink_multiply"; rust = LogicalTypeMerging.findMultiplicationDecimalType(p1, s1, p2, s2); }
            case DIVIDE -> { name = "gatun_flink_divide"; rust = LogicalTypeMerging.findDivisionDecimalType(p1, s1, p2, s2); }
            default -> { name = "gatun_flink_mod"; rust = LogicalTypeMerging.findModuloDecimalType(p1, s1, p2, s2); }
        }
        if (rust.getPrecision() != result.getPrecision() || rust.getScale() != result.getScale()) {
            throw refused(c, "is typed " + result.asSummaryString() + " by the planner but DECIMAL("
                    + rust.getPrecision() + ", " + rust.getScale() + ") natively; not admitted");
        }
        return new Typed(fn(name, result, ops[0].expr, ops[1].expr), result);
    }

    /** Integer digits of an integer operand: of its literal value, else of its type. */
    private static int digits(RexNode operand, DecimalType natural) {
        if (operand instanceof RexLiteral lit && !lit.isNull()) {
            java.math.BigDecimal v = lit.getValueAs(java.math.BigDecimal.class);
            return v.signum() == 0 ? 1 : v.precision() - v.scale();
        }
        return natural.getPrecision();
    }

    private Typed numericUnary(RexCall c, String name, LogicalType type) {
        Typed x = translate(c.getOperands().get(0));
        if (!isNumeric(x.type) || !sameArrow(x.type, type)) {
            throw refused(c, "is not admitted natively");
        }
        return new Typed(fn(name, type, x.expr), type);
    }

    // ---- CASE, COALESCE, CAST ----

    private Typed caseWhen(RexCall c, LogicalType type) {
        List<RexNode> ops = c.getOperands();
        Expression.IfThen.Builder b = Expression.IfThen.newBuilder();
        for (int i = 0; i + 1 < ops.size(); i += 2) {
            b.addIfs(Expression.IfThen.IfClause.newBuilder()
                    .setIf(bool(ops.get(i), c))
                    .setThen(implicit(c, translate(ops.get(i + 1)), type).expr));
        }
        b.setElse(ops.size() % 2 == 1 ? implicit(c, translate(ops.get(ops.size() - 1)), type).expr
                : Literals.typedNull(type));
        return new Typed(Expression.newBuilder().setIfThen(b).build(), type);
    }

    private Typed coalesce(RexCall c, LogicalType type) {
        List<RexNode> ops = c.getOperands();
        Expression.IfThen.Builder b = Expression.IfThen.newBuilder();
        for (int i = 0; i + 1 < ops.size(); i++) {
            Typed v = translate(ops.get(i));
            b.addIfs(Expression.IfThen.IfClause.newBuilder()
                    .setIf(fn("is_not_null", new BooleanType(), v.expr))
                    .setThen(implicit(c, v, type).expr));
        }
        b.setElse(implicit(c, translate(ops.get(ops.size() - 1)), type).expr);
        return new Typed(Expression.newBuilder().setIfThen(b).build(), type);
    }

    /** A conversion Flink's generated code does without a CAST in the plan (numeric widening etc.). */
    private Typed implicit(RexCall c, Typed x, LogicalType to) {
        if (x.expr.hasLiteral() && x.expr.getLiteral().hasNull()) {
            return new Typed(Literals.typedNull(to), to);
        }
        if (sameArrow(x.type, to)) {
            return new Typed(x.expr, to);
        }
        if (Kinds.lossless(x.type, to)) {
            return new Typed(substraitCast(x.expr, to), to);
        }
        if (Kinds.flinkCastable(x.type, to) && !isString(to) && !isString(x.type)) {
            return new Typed(fn("gatun_flink_cast", to, x.expr, Literals.typedNull(to)), to);
        }
        throw refused(c, "would need a conversion from " + x.type.asSummaryString() + " to "
                + to.asSummaryString() + ", which is not admitted natively");
    }

    private Typed cast(RexCall c, Typed x, LogicalType to, String function) {
        LogicalType from = x.type;
        if (isLocalZoned(from) != isLocalZoned(to) && from.getTypeRoot() != LogicalTypeRoot.NULL) {
            throw refused(c, SESSION_ZONE);
        }
        if (from.copy(true).equals(to.copy(true)) || from.getTypeRoot() == LogicalTypeRoot.NULL) {
            return implicit(c, x, to);
        }
        if (isString(to) && isString(from)) {
            if (!fitsWithoutPaddingOrTruncation(from, to)) {
                throw refused(c, "pads or truncates strings; not admitted natively");
            }
            return new Typed(x.expr, to);
        }
        if (sameArrow(from, to) && !isString(to)) {
            if (Kinds.timestampUnit(to) > 0 || to.getTypeRoot() == LogicalTypeRoot.TIME_WITHOUT_TIME_ZONE) {
                throw refused(c, "changes the fractional precision; not admitted natively");
            }
            return new Typed(x.expr, to);
        }
        if (function.equals("gatun_flink_cast") && Kinds.lossless(from, to)) {
            return new Typed(substraitCast(x.expr, to), to);
        }
        if (isString(to) && !(to instanceof VarCharType v && v.getLength() == VarCharType.MAX_LENGTH)) {
            throw refused(c, "to a bounded " + to.asSummaryString() + " is not admitted natively");
        }
        if (!Kinds.flinkCastable(from, to)) {
            throw refused(c, "is not admitted natively");
        }
        return new Typed(fn(function, to, x.expr, Literals.typedNull(to)), to);
    }

    /** A string cast that Flink performs as a no-op: the value already fits the target. */
    private static boolean fitsWithoutPaddingOrTruncation(LogicalType from, LogicalType to) {
        if (to instanceof VarCharType v) {
            return v.getLength() == VarCharType.MAX_LENGTH || maxLength(from) <= v.getLength();
        }
        return to instanceof CharType ct && from instanceof CharType cf && cf.getLength() == ct.getLength();
    }

    private static int maxLength(LogicalType t) {
        return t instanceof VarCharType v ? v.getLength() : ((CharType) t).getLength();
    }

    // ---- strings ----

    /** A Gatun string function whose operands are all strings. */
    private Typed caseMapping(RexCall c, String name, LogicalType type, boolean lower) {
        String unsupported = JavaCaseMapping.unsupportedReason(lower);
        if (unsupported != null) {
            throw refused(c, unsupported);
        }
        return strings(c, name, type, 1);
    }

    private Typed strings(RexCall c, String name, LogicalType type, int arity) {
        List<RexNode> ops = c.getOperands();
        if (ops.size() != arity) {
            throw refused(c, "with " + ops.size() + " arguments is not admitted natively");
        }
        Expression[] args = new Expression[arity];
        for (int i = 0; i < arity; i++) {
            Typed t = translate(ops.get(i));
            if (!isString(t.type)) {
                throw refused(c, "is not admitted natively");
            }
            args[i] = t.expr;
        }
        return new Typed(fn(name, type, args), type);
    }

    private Typed substring(RexCall c, LogicalType type) {
        List<RexNode> ops = c.getOperands();
        Typed s = translate(ops.get(0));
        if (!isString(s.type) || ops.size() > 3) {
            throw refused(c, "is not admitted natively");
        }
        Expression[] args = new Expression[ops.size()];
        args[0] = s.expr;
        for (int i = 1; i < ops.size(); i++) {
            Typed n = translate(ops.get(i));
            if (!isInteger(n.type) || Kinds.intRank(n.type) > 3) {
                throw refused(c, "is not admitted natively (positions must be INT)");
            }
            args[i] = implicit(c, n, new IntType(n.type.isNullable())).expr;
        }
        return new Typed(fn("gatun_flink_substring", type, args), type);
    }

    private Typed trim(RexCall c, LogicalType type) {
        List<RexNode> ops = c.getOperands();
        SqlTrimFunction.Flag flag = ((RexLiteral) ops.get(0)).getValueAs(SqlTrimFunction.Flag.class);
        String name = switch (flag) {
            case BOTH -> "gatun_flink_trim_both";
            case LEADING -> "gatun_flink_trim_leading";
            case TRAILING -> "gatun_flink_trim_trailing";
        };
        Typed chars = translate(ops.get(1));
        Typed s = translate(ops.get(2));
        if (!isString(chars.type) || !isString(s.type)) {
            throw refused(c, "is not admitted natively");
        }
        return new Typed(fn(name, type, s.expr, chars.expr), type);
    }

    /** LTRIM(s) / RTRIM(s) strip spaces (BinaryStringDataUtil.trimLeft/trimRight); a second argument names the characters. */
    private Typed trimFunction(RexCall c, String name, LogicalType type) {
        List<RexNode> ops = c.getOperands();
        Typed s = translate(ops.get(0));
        Typed chars = ops.size() > 1 ? translate(ops.get(1)) : new Typed(Literals.string(" "), s.type);
        if (ops.size() > 2 || !isString(chars.type) || !isString(s.type)) {
            throw refused(c, "is not admitted natively");
        }
        return new Typed(fn(name, type, s.expr, chars.expr), type);
    }

    /**
     * REGEXP_EXTRACT(s, pattern[, index]): Flink's SqlFunctionUtils.regexpExtract, natively
     * gatun_flink_regexp_extract, which translates the Java pattern to the regex crate and compiles
     * it once per plan, so the pattern must be a literal. Rust refuses a pattern outside the subset
     * it translates (the native compile at planning time then keeps the Calc on Flink, naming the
     * construct). A pattern Java rejects gives NULL for every row in Flink (regexpExtract swallows
     * the PatternSyntaxException), so it is sent as a NULL pattern, which gives NULL natively too.
     */
    private Typed regexpExtract(RexCall c, LogicalType type) {
        List<RexNode> ops = c.getOperands();
        Typed s = translate(ops.get(0));
        if (ops.size() > 3 || !isString(s.type)) {
            throw refused(c, "is not admitted natively");
        }
        List<Expression> args = new ArrayList<>(List.of(s.expr, regexPattern(c, ops.get(1))));
        if (ops.size() == 3) {
            Typed index = translate(ops.get(2));
            if (!isInteger(index.type)) {
                throw refused(c, "is not admitted natively (the index must be an integer)");
            }
            args.add(index.expr);
        }
        return new Typed(fn("gatun_flink_regexp_extract", type, args.toArray(Expression[]::new)), type);
    }

    private static Expression regexPattern(RexCall c, RexNode node) {
        if (!(node instanceof RexLiteral lit)) {
            throw refused(c, "has a computed pattern, which is not admitted natively (Gatun compiles"
                    + " the pattern once per plan: only a literal pattern is)");
        }
        LogicalType stringType = new VarCharType(VarCharType.MAX_LENGTH);
        if (lit.isNull()) {
            return Literals.typedNull(stringType);
        }
        if (!isString(logical(lit))) {
            throw refused(c, "is not admitted natively");
        }
        String pattern = lit.getValueAs(String.class);
        if (!isValidUtf16(pattern)) {
            // Flink encodes the literal as UTF-8 first, which replaces the surrogate
            throw refused(c, "has a pattern holding an unpaired surrogate; not admitted natively");
        }
        try {
            Pattern.compile(pattern);
        } catch (PatternSyntaxException e) {
            return Literals.typedNull(stringType);
        } catch (StackOverflowError e) {
            throw refused(c, "has a pattern that nests too deeply to check; not admitted natively");
        }
        return Literals.string(pattern);
    }

    /**
     * DATE_FORMAT(ts, pattern) of a TIMESTAMP: Flink's DateTimeUtils.formatTimestamp in UTC. The
     * pattern must be a STRING literal: Rust compiles it once per plan and refuses letters it does
     * not format (native/src/udf/date_format.rs), so the Calc stays on Flink with that reason. A
     * TIMESTAMP_LTZ (formatted in the session zone) or a STRING first argument stays on Flink too.
     */
    private Typed dateFormat(RexCall c, LogicalType type) {
        List<RexNode> ops = c.getOperands();
        if (ops.size() != 2) {
            throw refused(c, "with " + ops.size() + " arguments is not admitted natively");
        }
        Typed ts = translate(ops.get(0));
        if (ts.type.getTypeRoot() != LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE) {
            throw refused(c, "is not admitted natively (only DATE_FORMAT of a TIMESTAMP is)");
        }
        if (!(ops.get(1) instanceof RexLiteral lit) || lit.isNull() || !isString(logical(lit))) {
            throw refused(c, "is not admitted natively (the pattern must be a STRING literal)");
        }
        String pattern = lit.getValueAs(String.class);
        if (!isValidUtf16(pattern)) {
            throw refused(c, "has a pattern holding an unpaired surrogate; not admitted natively");
        }
        return new Typed(fn("gatun_flink_date_format", type, ts.expr, Literals.string(pattern)), type);
    }

    private static boolean isValidUtf16(String s) {
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (Character.isHighSurrogate(ch) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(ch)) {
                return false;
            }
        }
        return true;
    }

    /**
     * SPLIT_INDEX(s, separator, index): Flink's SqlFunctionUtils.splitIndex with a STRING separator
     * or an integer character code. Flink's generated code passes the separator code and the index as
     * a Java int, so a BIGINT one has no splitIndex overload and fails there: not admitted.
     */
    private Typed splitIndex(RexCall c, LogicalType type) {
        List<RexNode> ops = c.getOperands();
        if (ops.size() != 3) {
            throw refused(c, "with " + ops.size() + " arguments is not admitted natively");
        }
        Typed s = translate(ops.get(0));
        Typed separator = translate(ops.get(1));
        Typed index = translate(ops.get(2));
        if (!isString(s.type) || !(isString(separator.type) || Kinds.isJavaInt(separator.type))
                || !Kinds.isJavaInt(index.type)) {
            throw refused(c, "is not admitted natively (Flink's splitIndex takes a STRING or INT separator"
                    + " and an INT index)");
        }
        return new Typed(fn("gatun_flink_split_index", type, s.expr, separator.expr, index.expr), type);
    }

    private Typed like(RexCall c, LogicalType type) {
        if (c.getOperator() instanceof SqlLikeOperator op && !op.isCaseSensitive()) {
            throw refused(c, "is not admitted natively (case-insensitive)");
        }
        Typed t = strings(c, "gatun_flink_like", type, c.getOperands().size());
        if (c.getOperator() instanceof SqlLikeOperator op && op.isNegated()) {
            return new Typed(fn("not", type, t.expr), type);
        }
        return t;
    }

    // ---- temporal ----

    private Typed extract(RexCall c, LogicalType type) {
        String unit = unit(c, c.getOperands().get(0), "gatun_flink_extract");
        Typed x = translate(c.getOperands().get(1));
        if (isLocalZoned(x.type)) {
            throw refused(c, SESSION_ZONE);
        }
        if (!Kinds.isLocalTemporal(x.type) || type.getTypeRoot() != LogicalTypeRoot.BIGINT) {
            throw refused(c, "is not admitted natively");
        }
        return new Typed(fn("gatun_flink_extract", type, Literals.string(unit), x.expr), type);
    }

    private Typed floorCeil(RexCall c, String name, LogicalType type) {
        if (c.getOperands().size() != 2) {
            throw refused(c, "is not admitted natively (only FLOOR/CEIL of a date or time TO a unit is)");
        }
        Typed x = translate(c.getOperands().get(0));
        if (isLocalZoned(x.type)) {
            throw refused(c, SESSION_ZONE);
        }
        String unit = unit(c, c.getOperands().get(1), name);
        if (!Kinds.isLocalTemporal(x.type) || !sameArrow(x.type, type)) {
            throw refused(c, "is not admitted natively");
        }
        return new Typed(fn(name, type, x.expr, Literals.string(unit)), type);
    }

    private String unit(RexCall c, RexNode node, String function) {
        if (!(node instanceof RexLiteral lit) || !(lit.getValue() instanceof TimeUnitRange range)) {
            throw refused(c, "is not admitted natively (the unit is not a literal)");
        }
        String unit = range.name();
        if (!admitted.admitsUnit(function, unit)) {
            throw refused(c, "with unit " + unit + " is not admitted natively");
        }
        return unit;
    }

    /**
     * Why TIMESTAMP_LTZ conversions and fields stay on Flink: they depend on the session zone, and
     * the native temporal functions take zone-free values only (native/admission/README.md).
     */
    private static final String SESSION_ZONE = "depends on table.local-time-zone (it converts a TIMESTAMP_LTZ"
            + " instant to or from local time), which the native functions do not take; not admitted natively";

    private static boolean isLocalZoned(LogicalType t) {
        return t.getTypeRoot() == LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    }

    // ---- Substrait building blocks ----

    private Expression fn(String name, LogicalType outputType, Expression... args) {
        String unadmitted = admitted.unadmittedReason(name);
        if (unadmitted != null) {
            throw new NotAdmittedException(name + " is not admitted (functions.json): " + unadmitted);
        }
        if (!admitted.admits(name, args.length)) {
            throw new NotAdmittedException(name + " with " + args.length
                    + " arguments is not in native/admission/functions.json");
        }
        int anchor = anchor(name);
        Expression.ScalarFunction.Builder f = Expression.ScalarFunction.newBuilder()
                .setFunctionReference(anchor)
                .setOutputType(SubstraitTypes.of(outputType));
        for (Expression a : args) {
            f.addArguments(FunctionArgument.newBuilder().setValue(a));
        }
        return Expression.newBuilder().setScalarFunction(f).build();
    }

    private static Expression substraitCast(Expression x, LogicalType to) {
        return Expression.newBuilder().setCast(Expression.Cast.newBuilder()
                .setType(SubstraitTypes.of(to)).setInput(x)
                .setFailureBehavior(Expression.Cast.FailureBehavior.FAILURE_BEHAVIOR_THROW_EXCEPTION)).build();
    }

    /** A reference to field {@code column} of the root record. */
    public static Expression fieldRef(int column) {
        return Expression.newBuilder().setSelection(Expression.FieldReference.newBuilder()
                .setDirectReference(Expression.ReferenceSegment.newBuilder()
                        .setStructField(Expression.ReferenceSegment.StructField.newBuilder().setField(column)))
                .setRootReference(Expression.FieldReference.RootReference.getDefaultInstance())).build();
    }

    private static LogicalType logical(RexNode node) {
        return FlinkTypeFactory.toLogicalType(node.getType());
    }

    private static NotAdmittedException refused(RexCall c, String why) {
        String args = c.getOperands().stream()
                .map(o -> o instanceof RexLiteral l && l.getTypeName().getName().equals("SYMBOL")
                        ? String.valueOf(l.getValue()) : logical(o).asSummaryString())
                .collect(Collectors.joining(", "));
        return new NotAdmittedException(c.getOperator().getName() + "(" + args + ") " + why);
    }
}
