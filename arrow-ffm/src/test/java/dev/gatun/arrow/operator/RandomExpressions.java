package dev.gatun.arrow.operator;

import dev.gatun.arrow.testing.TestValues;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.Schema;
import dev.gatun.arrow.types.TimeUnit;
import io.substrait.proto.Expression;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Random;

/**
 * Random, well-typed expression trees over an input schema, each with a Java oracle where a simple
 * one exists ({@link #UNKNOWN} elsewhere). Only admitted functions with the argument types
 * native/admission/functions.json lists are generated.
 */
final class RandomExpressions {
    /** The oracle has no value for this expression. */
    static final Object UNKNOWN = new Object() {
        @Override
        public String toString() {
            return "UNKNOWN";
        }
    };

    /** Scalar types expressions are generated for. */
    static final List<ArrowType> SCALARS = List.of(
            ArrowType.BOOL, ArrowType.INT8, ArrowType.INT16, ArrowType.INT32, ArrowType.INT64,
            ArrowType.FLOAT32, ArrowType.FLOAT64, new ArrowType.Decimal128(38, 10), new ArrowType.Decimal128(10, 2),
            ArrowType.UTF8, ArrowType.DATE32, new ArrowType.Time32(TimeUnit.MILLISECOND),
            new ArrowType.Timestamp(TimeUnit.MILLISECOND, null), new ArrowType.Timestamp(TimeUnit.MICROSECOND, null),
            ArrowType.INTERVAL_YEAR_MONTH);

    /** Every mapped type an input column may have (DESIGN.md section 6), nested ones included. */
    static final List<Field> COLUMN_TYPES;

    static {
        List<Field> fields = new ArrayList<>();
        for (ArrowType t : SCALARS) {
            fields.add(Field.nullable("c", t));
        }
        fields.add(Field.nullable("c", ArrowType.BINARY));
        fields.add(Field.nullable("c", ArrowType.NULL));
        fields.add(Field.nullable("c", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC")));
        fields.add(Field.nullable("c", new ArrowType.Duration(TimeUnit.MILLISECOND)));
        fields.add(Field.list("c", true, Field.nullable("item", ArrowType.INT32)));
        fields.add(Field.struct("c", true, Field.nullable("a", ArrowType.INT64), Field.nullable("b", ArrowType.UTF8)));
        COLUMN_TYPES = List.copyOf(fields);
    }

    /** A generated expression: its plan, Arrow type, oracle and whether it may raise at run time. */
    record Node(Expression expr, ArrowType type, Oracle oracle, boolean mayRaise) {}

    /** Evaluates a node on row {@code row} of the input columns (canonical values). */
    @FunctionalInterface
    interface Oracle {
        Object at(List<List<Object>> columns, int row);
    }

    private final Random random;
    private final Schema schema;
    private final PlanBuilder plan;

    RandomExpressions(Random random, Schema schema, PlanBuilder plan) {
        this.random = random;
        this.schema = schema;
        this.plan = plan;
    }

    /** A random input schema of 1-6 columns, sometimes with the row-kind sidecar last. */
    static Schema randomSchema(Random random) {
        int n = 1 + random.nextInt(6);
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Field f = COLUMN_TYPES.get(random.nextInt(COLUMN_TYPES.size()));
            boolean nullable = f.type() instanceof ArrowType.Null || random.nextInt(4) != 0;
            fields.add(new Field("c" + i, f.type(), nullable, f.children(), f.metadata()));
        }
        if (random.nextInt(5) == 0) {
            fields.add(Field.notNull(NativeOperator.ROW_KIND_COLUMN, ArrowType.INT8));
        }
        return new Schema(fields, java.util.Map.of());
    }

    /** Canonical values of {@code schema} for {@code rows} rows; row kinds are valid kinds. */
    static List<List<Object>> randomColumns(Schema schema, int rows, Random random) {
        List<List<Object>> columns = new ArrayList<>();
        for (Field f : schema.fields()) {
            if (f.name().equals(NativeOperator.ROW_KIND_COLUMN)) {
                List<Object> kinds = new ArrayList<>();
                for (int r = 0; r < rows; r++) {
                    kinds.add((byte) random.nextInt(4));
                }
                columns.add(kinds);
            } else {
                TestValues.Nulls nulls = TestValues.Nulls.values()[random.nextInt(TestValues.Nulls.values().length)];
                columns.add(TestValues.column(f, rows, f.nullable() ? nulls : TestValues.Nulls.NONE, random));
            }
        }
        return columns;
    }

    Node any(int depth) {
        return of(SCALARS.get(random.nextInt(SCALARS.size())), depth);
    }

    /** A random expression of type {@code t}. */
    Node of(ArrowType t, int depth) {
        if (depth <= 0 || random.nextInt(4) == 0) {
            return leaf(t);
        }
        if (random.nextInt(6) == 0) {
            Node c = of(ArrowType.BOOL, depth - 1);
            Node a = of(t, depth - 1);
            Node b = of(t, depth - 1);
            return new Node(PlanBuilder.ifThen(c.expr, a.expr, b.expr), t, (cols, r) -> {
                Object cv = c.oracle.at(cols, r);
                if (cv == UNKNOWN) {
                    return UNKNOWN;
                }
                return Boolean.TRUE.equals(cv) ? a.oracle.at(cols, r) : b.oracle.at(cols, r);
            }, c.mayRaise || a.mayRaise || b.mayRaise);
        }
        return switch (t) {
            case ArrowType.Bool x -> bool(depth);
            case ArrowType.Int i -> integer(i, depth);
            case ArrowType.FloatingPoint f -> floating(f, depth);
            case ArrowType.Decimal128 d -> {
                boolean negate = random.nextBoolean();
                yield unary(negate ? "gatun_flink_negate" : "gatun_flink_abs", of(t, depth - 1),
                        v -> negate ? ((BigDecimal) v).negate() : ((BigDecimal) v).abs());
            }
            case ArrowType.Utf8 u -> string(depth);
            default -> leaf(t);
        };
    }

    private Node leaf(ArrowType t) {
        List<Integer> matching = new ArrayList<>();
        for (int i = 0; i < baseColumns(); i++) {
            if (schema.field(i).type().equals(t)) {
                matching.add(i);
            }
        }
        if (!matching.isEmpty() && random.nextInt(4) != 0) {
            int column = matching.get(random.nextInt(matching.size()));
            return new Node(PlanBuilder.field(column), t, (cols, r) -> cols.get(column).get(r), false);
        }
        Object v = random.nextInt(8) == 0 ? null : TestValues.value(Field.nullable("x", t), random.nextInt(8), random);
        return new Node(PlanBuilder.literal(t, v), t, (cols, r) -> v, false);
    }

    int baseColumns() {
        int n = schema.size();
        return n > 0 && schema.field(n - 1).name().equals(NativeOperator.ROW_KIND_COLUMN) ? n - 1 : n;
    }

    private Node bool(int depth) {
        switch (random.nextInt(7)) {
            case 0, 1 -> {
                boolean and = random.nextBoolean();
                Node a = of(ArrowType.BOOL, depth - 1);
                Node b = of(ArrowType.BOOL, depth - 1);
                return binary(and ? "and" : "or", ArrowType.BOOL, a, b, (x, y) -> and ? and(x, y) : or(x, y), true);
            }
            case 2 -> {
                String[] names = {"not", "is_true", "is_false", "is_not_true", "is_not_false"};
                String name = names[random.nextInt(names.length)];
                return unaryTo(name, ArrowType.BOOL, of(ArrowType.BOOL, depth - 1), v -> switch (name) {
                    case "not" -> v == null ? null : !(Boolean) v;
                    case "is_true" -> Boolean.TRUE.equals(v);
                    case "is_false" -> Boolean.FALSE.equals(v);
                    case "is_not_true" -> !Boolean.TRUE.equals(v);
                    default -> !Boolean.FALSE.equals(v);
                });
            }
            case 3 -> {
                boolean isNull = random.nextBoolean();
                Node x = random.nextInt(3) == 0 ? columnOfAnyType() : any(depth - 1);
                return unaryTo(isNull ? "is_null" : "is_not_null", ArrowType.BOOL, x,
                        v -> isNull == (v == null));
            }
            case 4 -> {
                ArrowType t = SCALARS.get(random.nextInt(SCALARS.size()));
                String[] ops = {"equal", "not_equal", "lt", "lte", "gt", "gte"};
                String op = ops[random.nextInt(ops.length)];
                boolean floating = t instanceof ArrowType.FloatingPoint;
                String name = floating ? "gatun_flink_" + op : op;
                Node a = of(t, depth - 1);
                Node b = of(t, depth - 1);
                return binary(name, ArrowType.BOOL, a, b, (x, y) -> compare(op, x, y), true);
            }
            case 5 -> {
                Node s = of(ArrowType.UTF8, depth - 1);
                String[] patterns = {"%", "a%", "%é%", "_", "%😀%", "", "a_c%"};
                Expression p = PlanBuilder.literal(ArrowType.UTF8, patterns[random.nextInt(patterns.length)]);
                return new Node(plan.call("gatun_flink_like", ArrowType.BOOL, s.expr, p), ArrowType.BOOL,
                        (cols, r) -> UNKNOWN, s.mayRaise);
            }
            default -> {
                return leaf(ArrowType.BOOL);
            }
        }
    }

    private Node columnOfAnyType() {
        int column = random.nextInt(baseColumns());
        return new Node(PlanBuilder.field(column), schema.field(column).type(), (cols, r) -> cols.get(column).get(r), false);
    }

    private Node integer(ArrowType.Int t, int depth) {
        int bits = t.bitWidth();
        int pick = random.nextInt(8);
        if (pick <= 1) {
            String[] ops = {"add", "subtract", "multiply"};
            String op = ops[random.nextInt(3)];
            String name = random.nextBoolean() ? op : "gatun_flink_" + op;
            return binary(name, t, of(t, depth - 1), of(t, depth - 1),
                    (x, y) -> x == null || y == null ? null : wrap(bits, switch (op) {
                        case "add" -> ((Number) x).longValue() + ((Number) y).longValue();
                        case "subtract" -> ((Number) x).longValue() - ((Number) y).longValue();
                        default -> ((Number) x).longValue() * ((Number) y).longValue();
                    }), false);
        }
        if (pick == 2) {
            boolean divide = random.nextBoolean();
            Node a = of(t, depth - 1);
            Node b = of(t, depth - 1);
            Node n = binary(divide ? "gatun_flink_divide" : "gatun_flink_mod", t, a, b, (x, y) -> {
                if (x == null || y == null) {
                    return null;
                }
                long d = ((Number) y).longValue();
                if (d == 0) {
                    return UNKNOWN;
                }
                long v = ((Number) x).longValue();
                return wrap(bits, divide ? v / d : v % d);
            }, false);
            return new Node(n.expr, t, n.oracle, true);
        }
        if (pick == 3) {
            boolean negate = random.nextBoolean();
            return unary(negate ? "gatun_flink_negate" : "gatun_flink_abs", of(t, depth - 1),
                    v -> wrap(bits, negate ? -((Number) v).longValue() : Math.abs(((Number) v).longValue())));
        }
        if (pick == 4 && bits == 32) {
            if (random.nextBoolean()) {
                return unaryTo("gatun_flink_char_length", t, of(ArrowType.UTF8, depth - 1),
                        v -> v == null ? null : ((String) v).codePointCount(0, ((String) v).length()));
            }
            return binary("gatun_flink_position", t, of(ArrowType.UTF8, depth - 1), of(ArrowType.UTF8, depth - 1),
                    (n, h) -> n == null || h == null ? null : position((String) n, (String) h), false);
        }
        if (pick == 5 && bits > 8) {
            ArrowType.Int from = new ArrowType.Int(bits / 2);
            Node x = of(from, depth - 1);
            return new Node(PlanBuilder.substraitCast(x.expr, t), t, (cols, r) -> {
                Object v = x.oracle.at(cols, r);
                return v == null || v == UNKNOWN ? v : wrap(bits, ((Number) v).longValue());
            }, x.mayRaise);
        }
        if (pick == 6 && bits == 64) {
            Node d = of(ArrowType.DATE32, depth - 1);
            return new Node(plan.call("gatun_flink_extract", t, PlanBuilder.literal(ArrowType.UTF8, "YEAR"), d.expr), t,
                    (cols, r) -> {
                        Object v = d.oracle.at(cols, r);
                        return v == null || v == UNKNOWN ? v : (long) LocalDate.ofEpochDay((Integer) v).getYear();
                    }, d.mayRaise);
        }
        return leaf(t);
    }

    private Node floating(ArrowType.FloatingPoint t, int depth) {
        boolean single = t.bitWidth() == 32;
        switch (random.nextInt(4)) {
            case 0, 1 -> {
                String[] ops = {"add", "subtract", "multiply"};
                String op = ops[random.nextInt(3)];
                String name = random.nextBoolean() ? op : "gatun_flink_" + op;
                return binary(name, t, of(t, depth - 1), of(t, depth - 1), (x, y) -> {
                    if (x == null || y == null) {
                        return null;
                    }
                    if (single) {
                        float a = (Float) x, b = (Float) y;
                        return op.equals("add") ? a + b : op.equals("subtract") ? a - b : a * b;
                    }
                    double a = (Double) x, b = (Double) y;
                    return op.equals("add") ? a + b : op.equals("subtract") ? a - b : a * b;
                }, false);
            }
            case 2 -> {
                boolean negate = random.nextBoolean();
                return unary(negate ? "gatun_flink_negate" : "gatun_flink_abs", of(t, depth - 1), v -> single
                        ? (Object) (negate ? -(Float) v : Math.abs((Float) v))
                        : (Object) (negate ? -(Double) v : Math.abs((Double) v)));
            }
            default -> {
                if (single) {
                    return leaf(t);
                }
                Node x = of(ArrowType.INT32, depth - 1);
                return new Node(PlanBuilder.substraitCast(x.expr, t), t, (cols, r) -> {
                    Object v = x.oracle.at(cols, r);
                    return v == null || v == UNKNOWN ? v : (double) (Integer) v;
                }, x.mayRaise);
            }
        }
    }

    private Node string(int depth) {
        switch (random.nextInt(7)) {
            case 0 -> {
                boolean upper = random.nextBoolean();
                // Java's own mapping is the oracle, LOWER's final sigma included
                return unary(upper ? "gatun_flink_upper" : "gatun_flink_lower", of(ArrowType.UTF8, depth - 1),
                        v -> upper ? ((String) v).toUpperCase(Locale.ROOT) : ((String) v).toLowerCase(Locale.ROOT));
            }
            case 1 -> {
                return binary("gatun_flink_concat", ArrowType.UTF8, of(ArrowType.UTF8, depth - 1),
                        of(ArrowType.UTF8, depth - 1), (x, y) -> x == null || y == null ? null : (String) x + y, false);
            }
            case 2 -> {
                Node s = of(ArrowType.UTF8, depth - 1);
                Node start = of(ArrowType.INT32, depth - 1);
                return new Node(plan.call("gatun_flink_substring", ArrowType.UTF8, s.expr, start.expr),
                        ArrowType.UTF8, (cols, r) -> UNKNOWN, s.mayRaise || start.mayRaise);
            }
            case 3 -> {
                String[] names = {"gatun_flink_trim_both", "gatun_flink_trim_leading", "gatun_flink_trim_trailing"};
                int which = random.nextInt(3);
                String chars = random.nextBoolean() ? " " : "aé😀";
                Node s = of(ArrowType.UTF8, depth - 1);
                return new Node(plan.call(names[which], ArrowType.UTF8, s.expr, PlanBuilder.literal(ArrowType.UTF8, chars)),
                        ArrowType.UTF8, (cols, r) -> {
                            Object v = s.oracle.at(cols, r);
                            return v == null || v == UNKNOWN ? v : trim((String) v, chars, which != 2, which != 1);
                        }, s.mayRaise);
            }
            case 4 -> {
                Node s = of(ArrowType.UTF8, depth - 1);
                String search = random.nextBoolean() ? "a" : "é";
                return new Node(plan.call("gatun_flink_replace", ArrowType.UTF8, s.expr,
                        PlanBuilder.literal(ArrowType.UTF8, search), PlanBuilder.literal(ArrowType.UTF8, "xyz")),
                        ArrowType.UTF8, (cols, r) -> {
                            Object v = s.oracle.at(cols, r);
                            return v == null || v == UNKNOWN ? v : ((String) v).replace(search, "xyz");
                        }, s.mayRaise);
            }
            case 5 -> {
                ArrowType.Int from = new ArrowType.Int(8 << random.nextInt(4));
                Node x = of(from, depth - 1);
                return new Node(plan.call("gatun_flink_cast", ArrowType.UTF8, x.expr, PlanBuilder.typedNull(ArrowType.UTF8)),
                        ArrowType.UTF8, (cols, r) -> {
                            Object v = x.oracle.at(cols, r);
                            return v == null || v == UNKNOWN ? v : String.valueOf(v);
                        }, x.mayRaise);
            }
            default -> {
                return leaf(ArrowType.UTF8);
            }
        }
    }

    private Node unary(String name, Node x, java.util.function.Function<Object, Object> f) {
        return unaryTo(name, x.type, x, v -> v == null ? null : f.apply(v));
    }

    private Node unaryTo(String name, ArrowType type, Node x, java.util.function.Function<Object, Object> f) {
        return new Node(plan.call(name, type, x.expr), type, (cols, r) -> {
            Object v = x.oracle.at(cols, r);
            return v == UNKNOWN ? UNKNOWN : f.apply(v);
        }, x.mayRaise);
    }

    private Node binary(String name, ArrowType type, Node a, Node b,
                        java.util.function.BinaryOperator<Object> f, boolean seesUnknown) {
        return new Node(plan.call(name, type, a.expr, b.expr), type, (cols, r) -> {
            Object x = a.oracle.at(cols, r);
            Object y = b.oracle.at(cols, r);
            if (!seesUnknown && (x == UNKNOWN || y == UNKNOWN)) {
                return UNKNOWN;
            }
            return f.apply(x, y);
        }, a.mayRaise || b.mayRaise);
    }

    private static Object and(Object x, Object y) {
        if (Boolean.FALSE.equals(x) || Boolean.FALSE.equals(y)) {
            return false;
        }
        if (x == UNKNOWN || y == UNKNOWN) {
            return UNKNOWN;
        }
        return x == null || y == null ? null : true;
    }

    private static Object or(Object x, Object y) {
        if (Boolean.TRUE.equals(x) || Boolean.TRUE.equals(y)) {
            return true;
        }
        if (x == UNKNOWN || y == UNKNOWN) {
            return UNKNOWN;
        }
        return x == null || y == null ? null : false;
    }

    /** Comparisons the oracle knows: integers, booleans, floats (Java primitive rules), string equality. */
    private static Object compare(String op, Object x, Object y) {
        if (x == UNKNOWN || y == UNKNOWN) {
            return UNKNOWN;
        }
        if (x == null || y == null) {
            return null;
        }
        if (x instanceof Float || x instanceof Double) {
            double a = ((Number) x).doubleValue(), b = ((Number) y).doubleValue();
            return switch (op) {
                case "equal" -> a == b;
                case "not_equal" -> a != b;
                case "lt" -> a < b;
                case "lte" -> a <= b;
                case "gt" -> a > b;
                default -> a >= b;
            };
        }
        int c;
        if (x instanceof Byte || x instanceof Short || x instanceof Integer || x instanceof Long) {
            c = Long.compare(((Number) x).longValue(), ((Number) y).longValue());
        } else if (x instanceof BigDecimal a) {
            c = a.compareTo((BigDecimal) y);
        } else if (x instanceof Boolean a) {
            c = Boolean.compare(a, (Boolean) y);
        } else if (op.equals("equal") || op.equals("not_equal")) {
            return op.equals("equal") == Objects.equals(x, y);
        } else {
            return UNKNOWN;
        }
        return switch (op) {
            case "equal" -> c == 0;
            case "not_equal" -> c != 0;
            case "lt" -> c < 0;
            case "lte" -> c <= 0;
            case "gt" -> c > 0;
            default -> c >= 0;
        };
    }

    private static Object wrap(int bits, long v) {
        return switch (bits) {
            case 8 -> (byte) v;
            case 16 -> (short) v;
            case 32 -> (int) v;
            default -> v;
        };
    }

    private static int position(String needle, String haystack) {
        int at = haystack.indexOf(needle);
        return at < 0 ? 0 : haystack.codePointCount(0, at) + 1;
    }

    private static String trim(String s, String chars, boolean leading, boolean trailing) {
        int[] cps = s.codePoints().toArray();
        int from = 0, to = cps.length;
        while (leading && from < to && chars.indexOf(Character.toString(cps[from])) >= 0) {
            from++;
        }
        while (trailing && to > from && chars.indexOf(Character.toString(cps[to - 1])) >= 0) {
            to--;
        }
        return new String(cps, from, to - from);
    }
}
