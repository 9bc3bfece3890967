package dev.gatun.planner.substrait;

import com.google.protobuf.ByteString;
import io.substrait.proto.Expression;
import io.substrait.proto.Expression.Literal;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.util.TimestampString;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.TimestampType;

/** Calcite literals as Substrait literals of the same Arrow type. */
final class Literals {
    private static final DateTimeFormatter TIMESTAMP = new DateTimeFormatterBuilder()
            .appendPattern("uuuu-MM-dd HH:mm:ss")
            .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).optionalEnd()
            .toFormatter();

    private Literals() {}

    /** A typed NULL: also how {@code gatun_flink_cast} receives its target type. */
    static Expression typedNull(LogicalType type) {
        return Expression.newBuilder().setLiteral(Literal.newBuilder()
                .setNull(SubstraitTypes.of(type.copy(true))).setNullable(true)).build();
    }

    static Expression int32(int value) {
        return Expression.newBuilder().setLiteral(Literal.newBuilder().setI32(value)).build();
    }

    static Expression int64(long value) {
        return Expression.newBuilder().setLiteral(Literal.newBuilder().setI64(value)).build();
    }

    static Expression string(String value) {
        return Expression.newBuilder().setLiteral(Literal.newBuilder().setString(value)).build();
    }

    static Expression of(RexLiteral lit, LogicalType type) {
        if (lit.isNull()) {
            return typedNull(type);
        }
        Literal.Builder b = Literal.newBuilder().setNullable(type.isNullable());
        switch (type.getTypeRoot()) {
            case BOOLEAN -> b.setBoolean(lit.getValueAs(Boolean.class));
            case TINYINT -> b.setI8(exact(lit).byteValueExact());
            case SMALLINT -> b.setI16(exact(lit).shortValueExact());
            case INTEGER -> b.setI32(exact(lit).intValueExact());
            case BIGINT -> b.setI64(exact(lit).longValueExact());
            case FLOAT -> b.setFp32(lit.getValueAs(Double.class).floatValue());
            case DOUBLE -> b.setFp64(lit.getValueAs(Double.class));
            case DECIMAL -> b.setDecimal(decimal(exact(lit), (DecimalType) type));
            case CHAR, VARCHAR -> b.setString(lit.getValueAs(String.class));
            case BINARY, VARBINARY -> b.setBinary(ByteString.copyFrom(
                    lit.getValueAs(org.apache.calcite.avatica.util.ByteString.class).getBytes()));
            case DATE -> b.setDate(lit.getValueAs(Integer.class));
            case TIME_WITHOUT_TIME_ZONE -> b.setPrecisionTime(Literal.PrecisionTime.newBuilder()
                    .setPrecision(3).setValue(lit.getValueAs(Integer.class)));
            case TIMESTAMP_WITHOUT_TIME_ZONE -> b.setPrecisionTimestamp(
                    timestamp(lit.getValueAs(TimestampString.class), ((TimestampType) type).getPrecision()));
            case INTERVAL_YEAR_MONTH -> b.setIntervalYearToMonth(Literal.IntervalYearToMonth.newBuilder()
                    .setMonths(exact(lit).intValueExact()));
            default -> throw new NotAdmittedException("a literal of type " + type.asSummaryString()
                    + " has no native encoding");
        }
        return Expression.newBuilder().setLiteral(b).build();
    }

    private static BigDecimal exact(RexLiteral lit) {
        return lit.getValueAs(BigDecimal.class);
    }

    private static Literal.Decimal decimal(BigDecimal value, DecimalType type) {
        byte[] be = value.setScale(type.getScale(), RoundingMode.UNNECESSARY).unscaledValue().toByteArray();
        byte[] le = new byte[16];
        byte sign = (byte) (be[0] < 0 ? -1 : 0);
        for (int i = 0; i < 16; i++) {
            le[i] = i < be.length ? be[be.length - 1 - i] : sign;
        }
        return Literal.Decimal.newBuilder().setValue(ByteString.copyFrom(le))
                .setPrecision(type.getPrecision()).setScale(type.getScale()).build();
    }

    private static Literal.PrecisionTimestamp timestamp(TimestampString ts, int precision) {
        LocalDateTime t = LocalDateTime.parse(ts.toString(), TIMESTAMP);
        long seconds = t.toEpochSecond(ZoneOffset.UTC);
        int nanos = t.getNano();
        if (precision <= 3) {
            return Literal.PrecisionTimestamp.newBuilder().setPrecision(3)
                    .setValue(seconds * 1_000 + nanos / 1_000_000).build();
        }
        if (precision <= 6) {
            return Literal.PrecisionTimestamp.newBuilder().setPrecision(6)
                    .setValue(seconds * 1_000_000 + nanos / 1_000).build();
        }
        return Literal.PrecisionTimestamp.newBuilder().setPrecision(9)
                .setValue(Math.addExact(Math.multiplyExact(seconds, 1_000_000_000L), nanos)).build();
    }
}
