package dev.gatun.arrow.operator;

import com.google.protobuf.ByteString;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.types.Schema;
import dev.gatun.arrow.types.TimeUnit;
import io.substrait.proto.Expression;
import io.substrait.proto.Expression.Literal;
import io.substrait.proto.ExpressionReference;
import io.substrait.proto.ExtendedExpression;
import io.substrait.proto.FunctionArgument;
import io.substrait.proto.NamedStruct;
import io.substrait.proto.SimpleExtensionDeclaration;
import io.substrait.proto.Type;
import io.substrait.proto.Type.Nullability;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds Calc plans with io.substrait:core's protobuf classes, encoding types as the table in
 * docs/native.md says (Arrow type → Substrait type and variation).
 */
final class PlanBuilder {
    private static final int NULL_TYPE_ANCHOR = 1;

    private final Schema input;
    private final Map<String, Integer> functions = new LinkedHashMap<>();
    private final List<ExpressionReference> refs = new ArrayList<>();

    PlanBuilder(Schema input) {
        this.input = input;
    }

    /** The anchor of {@code name}, declaring it on first use. */
    int anchor(String name) {
        return functions.computeIfAbsent(name, n -> functions.size() + 1);
    }

    Expression call(String name, ArrowType output, Expression... args) {
        Expression.ScalarFunction.Builder f = Expression.ScalarFunction.newBuilder()
                .setFunctionReference(anchor(name)).setOutputType(type(output, true));
        for (Expression a : args) {
            f.addArguments(FunctionArgument.newBuilder().setValue(a));
        }
        return Expression.newBuilder().setScalarFunction(f).build();
    }

    PlanBuilder project(String name, Expression e) {
        refs.add(ExpressionReference.newBuilder().setExpression(e).addOutputNames(name).build());
        return this;
    }

    PlanBuilder filter(Expression e) {
        return project(NativeOperator.FILTER_NAME, e);
    }

    /** Assigns watermarks: {@code rowtime} is checked for NULLs, {@code watermark} gives the values. */
    PlanBuilder watermarks(Expression rowtime, Expression watermark) {
        project(NativeOperator.ROWTIME_NAME, rowtime);
        return project(NativeOperator.WATERMARK_NAME, watermark);
    }

    byte[] build() {
        return plan().toByteArray();
    }

    ExtendedExpression plan() {
        ExtendedExpression.Builder b = ExtendedExpression.newBuilder().setBaseSchema(baseSchema(input));
        b.addAllReferredExpr(refs);
        functions.forEach((name, anchor) -> b.addExtensions(SimpleExtensionDeclaration.newBuilder()
                .setExtensionFunction(SimpleExtensionDeclaration.ExtensionFunction.newBuilder()
                        .setFunctionAnchor(anchor).setName(name))));
        b.addExtensions(SimpleExtensionDeclaration.newBuilder().setExtensionType(
                SimpleExtensionDeclaration.ExtensionType.newBuilder().setTypeAnchor(NULL_TYPE_ANCHOR).setName("null")));
        return b.build();
    }

    /** The base schema: every input column except the row-kind sidecar. */
    static NamedStruct baseSchema(Schema input) {
        NamedStruct.Builder ns = NamedStruct.newBuilder();
        Type.Struct.Builder struct = Type.Struct.newBuilder().setNullability(Nullability.NULLABILITY_REQUIRED);
        for (Field f : input.fields()) {
            if (f.name().equals(NativeOperator.ROW_KIND_COLUMN)) {
                continue;
            }
            ns.addNames(f.name());
            nestedNames(f, ns);
            struct.addTypes(type(f));
        }
        return ns.setStruct(struct).build();
    }

    private static void nestedNames(Field f, NamedStruct.Builder ns) {
        if (f.type() instanceof ArrowType.StructType) {
            for (Field c : f.children()) {
                ns.addNames(c.name());
                nestedNames(c, ns);
            }
        } else if (f.type() instanceof ArrowType.ListType) {
            nestedNames(f.child(0), ns);
        }
    }

    static Type type(Field f) {
        if (f.type() instanceof ArrowType.ListType) {
            return Type.newBuilder().setList(Type.List.newBuilder().setType(type(f.child(0)))
                    .setNullability(n(f.nullable()))).build();
        }
        if (f.type() instanceof ArrowType.StructType) {
            Type.Struct.Builder s = Type.Struct.newBuilder().setNullability(n(f.nullable()));
            f.children().forEach(c -> s.addTypes(type(c)));
            return Type.newBuilder().setStruct(s).build();
        }
        return type(f.type(), f.nullable());
    }

    static Type type(ArrowType t, boolean nullable) {
        Nullability n = n(nullable);
        Type.Builder b = Type.newBuilder();
        switch (t) {
            case ArrowType.Null x -> b.setUserDefined(Type.UserDefined.newBuilder()
                    .setTypeReference(NULL_TYPE_ANCHOR).setNullability(Nullability.NULLABILITY_NULLABLE));
            case ArrowType.Bool x -> b.setBool(Type.Boolean.newBuilder().setNullability(n));
            case ArrowType.Int i -> {
                switch (i.bitWidth()) {
                    case 8 -> b.setI8(Type.I8.newBuilder().setNullability(n));
                    case 16 -> b.setI16(Type.I16.newBuilder().setNullability(n));
                    case 32 -> b.setI32(Type.I32.newBuilder().setNullability(n));
                    default -> b.setI64(Type.I64.newBuilder().setNullability(n));
                }
            }
            case ArrowType.FloatingPoint f -> {
                if (f.bitWidth() == 32) {
                    b.setFp32(Type.FP32.newBuilder().setNullability(n));
                } else {
                    b.setFp64(Type.FP64.newBuilder().setNullability(n));
                }
            }
            case ArrowType.Decimal128 d -> b.setDecimal(Type.Decimal.newBuilder()
                    .setPrecision(d.precision()).setScale(d.scale()).setNullability(n));
            case ArrowType.Utf8 x -> b.setString(Type.String.newBuilder().setNullability(n));
            case ArrowType.Binary x -> b.setBinary(Type.Binary.newBuilder().setNullability(n));
            case ArrowType.Date32 x -> b.setDate(Type.Date.newBuilder().setNullability(n));
            case ArrowType.Time32 x -> b.setPrecisionTime(Type.PrecisionTime.newBuilder().setPrecision(3).setNullability(n));
            case ArrowType.Timestamp ts -> {
                int digits = ts.unit() == TimeUnit.MILLISECOND ? 3 : ts.unit() == TimeUnit.MICROSECOND ? 6 : 9;
                if (ts.zone() == null) {
                    b.setPrecisionTimestamp(Type.PrecisionTimestamp.newBuilder().setPrecision(digits).setNullability(n));
                } else {
                    b.setPrecisionTimestampTz(Type.PrecisionTimestampTZ.newBuilder().setPrecision(digits).setNullability(n));
                }
            }
            case ArrowType.IntervalYearMonth x -> b.setIntervalYear(Type.IntervalYear.newBuilder().setNullability(n));
            case ArrowType.Duration x -> b.setIntervalDay(Type.IntervalDay.newBuilder().setPrecision(3)
                    .setTypeVariationReference(1).setNullability(n));
            default -> throw new IllegalArgumentException("no scalar encoding for " + t);
        }
        return b.build();
    }

    private static Nullability n(boolean nullable) {
        return nullable ? Nullability.NULLABILITY_NULLABLE : Nullability.NULLABILITY_REQUIRED;
    }

    static Expression field(int column) {
        return Expression.newBuilder().setSelection(Expression.FieldReference.newBuilder()
                .setDirectReference(Expression.ReferenceSegment.newBuilder()
                        .setStructField(Expression.ReferenceSegment.StructField.newBuilder().setField(column)))
                .setRootReference(Expression.FieldReference.RootReference.getDefaultInstance())).build();
    }

    static Expression typedNull(ArrowType t) {
        return Expression.newBuilder().setLiteral(Literal.newBuilder().setNull(type(t, true)).setNullable(true)).build();
    }

    /** A literal of a canonical test value ({@code TestValues}'s forms); NULL becomes a typed NULL. */
    static Expression literal(ArrowType t, Object v) {
        if (v == null) {
            return typedNull(t);
        }
        Literal.Builder b = Literal.newBuilder().setNullable(true);
        switch (t) {
            case ArrowType.Bool x -> b.setBoolean((Boolean) v);
            case ArrowType.Int i -> {
                switch (i.bitWidth()) {
                    case 8 -> b.setI8((Byte) v);
                    case 16 -> b.setI16((Short) v);
                    case 32 -> b.setI32((Integer) v);
                    default -> b.setI64((Long) v);
                }
            }
            case ArrowType.FloatingPoint f -> {
                if (f.bitWidth() == 32) {
                    b.setFp32((Float) v);
                } else {
                    b.setFp64((Double) v);
                }
            }
            case ArrowType.Decimal128 d -> b.setDecimal(decimal((BigDecimal) v, d));
            case ArrowType.Utf8 x -> b.setString((String) v);
            case ArrowType.Date32 x -> b.setDate((Integer) v);
            case ArrowType.Time32 x -> b.setPrecisionTime(Literal.PrecisionTime.newBuilder().setPrecision(3).setValue((Integer) v));
            case ArrowType.Timestamp ts when ts.zone() == null -> b.setPrecisionTimestamp(Literal.PrecisionTimestamp.newBuilder()
                    .setPrecision(ts.unit() == TimeUnit.MILLISECOND ? 3 : 6).setValue((Long) v));
            case ArrowType.IntervalYearMonth x -> b.setIntervalYearToMonth(Literal.IntervalYearToMonth.newBuilder().setMonths((Integer) v));
            default -> throw new IllegalArgumentException("no literal encoding for " + t);
        }
        return Expression.newBuilder().setLiteral(b).build();
    }

    private static Literal.Decimal decimal(BigDecimal value, ArrowType.Decimal128 type) {
        byte[] be = value.unscaledValue().toByteArray();
        byte[] le = new byte[16];
        byte sign = (byte) (be[0] < 0 ? -1 : 0);
        for (int i = 0; i < 16; i++) {
            le[i] = i < be.length ? be[be.length - 1 - i] : sign;
        }
        return Literal.Decimal.newBuilder().setValue(ByteString.copyFrom(le))
                .setPrecision(type.precision()).setScale(type.scale()).build();
    }

    static Expression substraitCast(Expression x, ArrowType to) {
        return Expression.newBuilder().setCast(Expression.Cast.newBuilder().setType(type(to, true)).setInput(x)
                .setFailureBehavior(Expression.Cast.FailureBehavior.FAILURE_BEHAVIOR_THROW_EXCEPTION)).build();
    }

    static Expression ifThen(Expression cond, Expression then, Expression otherwise) {
        return Expression.newBuilder().setIfThen(Expression.IfThen.newBuilder()
                .addIfs(Expression.IfThen.IfClause.newBuilder().setIf(cond).setThen(then))
                .setElse(otherwise)).build();
    }
}
