package dev.gatun.planner.substrait;

import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.TimestampType;

/** Type predicates over Flink types as they reach Rust (their Arrow types). */
final class Kinds {
    private Kinds() {}

    static boolean isInteger(LogicalType t) {
        return switch (t.getTypeRoot()) {
            case TINYINT, SMALLINT, INTEGER, BIGINT -> true;
            default -> false;
        };
    }

    static boolean isFloat(LogicalType t) {
        return t.getTypeRoot() == LogicalTypeRoot.FLOAT || t.getTypeRoot() == LogicalTypeRoot.DOUBLE;
    }

    static boolean isDecimal(LogicalType t) {
        return t.getTypeRoot() == LogicalTypeRoot.DECIMAL;
    }

    static boolean isNumeric(LogicalType t) {
        return isInteger(t) || isFloat(t) || isDecimal(t);
    }

    static boolean isString(LogicalType t) {
        return t.getTypeRoot() == LogicalTypeRoot.CHAR || t.getTypeRoot() == LogicalTypeRoot.VARCHAR;
    }

    static boolean isBoolean(LogicalType t) {
        return t.getTypeRoot() == LogicalTypeRoot.BOOLEAN;
    }

    /** DATE, TIME or TIMESTAMP(p <= 6) without zone: what the Gatun temporal functions take. */
    static boolean isLocalTemporal(LogicalType t) {
        return switch (t.getTypeRoot()) {
            case DATE, TIME_WITHOUT_TIME_ZONE -> true;
            case TIMESTAMP_WITHOUT_TIME_ZONE -> ((TimestampType) t).getPrecision() <= 6;
            default -> false;
        };
    }

    /** TINYINT, SMALLINT or INT: what Flink's generated code passes to a Java {@code int} parameter. */
    static boolean isJavaInt(LogicalType t) {
        return isInteger(t) && intRank(t) <= 3;
    }

    /** 1..4 for TINYINT..BIGINT, else 0. */
    static int intRank(LogicalType t) {
        return switch (t.getTypeRoot()) {
            case TINYINT -> 1;
            case SMALLINT -> 2;
            case INTEGER -> 3;
            case BIGINT -> 4;
            default -> 0;
        };
    }

    /** The decimal an integer converts to exactly (Flink's LogicalTypeMerging view of it). */
    static DecimalType naturalDecimal(LogicalType integer) {
        int p = switch (integer.getTypeRoot()) {
            case TINYINT -> 3;
            case SMALLINT -> 5;
            case INTEGER -> 10;
            default -> 19;
        };
        return new DecimalType(integer.isNullable(), p, 0);
    }

    /** Timestamp unit digits (3, 6 or 9), or -1 for a type that is not a timestamp. */
    static int timestampUnit(LogicalType t) {
        int p = switch (t.getTypeRoot()) {
            case TIMESTAMP_WITHOUT_TIME_ZONE -> ((TimestampType) t).getPrecision();
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> ((LocalZonedTimestampType) t).getPrecision();
            default -> -1;
        };
        return p < 0 ? -1 : p <= 3 ? 3 : p <= 6 ? 6 : 9;
    }

    /**
     * Whether both types reach Rust as the same Arrow type (CHAR(3) and VARCHAR(9) are both
     * Utf8; TIMESTAMP(0) and TIMESTAMP(3) both milliseconds). Nested types must be equal.
     */
    static boolean sameArrow(LogicalType a, LogicalType b) {
        LogicalTypeRoot ra = a.getTypeRoot();
        LogicalTypeRoot rb = b.getTypeRoot();
        if (isString(a) && isString(b)) {
            return true;
        }
        if ((ra == LogicalTypeRoot.BINARY || ra == LogicalTypeRoot.VARBINARY)
                && (rb == LogicalTypeRoot.BINARY || rb == LogicalTypeRoot.VARBINARY)) {
            return true;
        }
        if (ra != rb) {
            return false;
        }
        return switch (ra) {
            case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> timestampUnit(a) == timestampUnit(b);
            case TIME_WITHOUT_TIME_ZONE, INTERVAL_DAY_TIME, INTERVAL_YEAR_MONTH -> true;
            default -> a.copy(true).equals(b.copy(true));
        };
    }

    /** Casts whose Arrow result equals Flink's for every value: Rust admits them as Substrait casts. */
    static boolean lossless(LogicalType from, LogicalType to) {
        if (sameArrow(from, to) || from.getTypeRoot() == LogicalTypeRoot.NULL) {
            return true;
        }
        int rf = intRank(from);
        int rt = intRank(to);
        if (rf > 0 && rt > 0) {
            return rf < rt;
        }
        LogicalTypeRoot t = to.getTypeRoot();
        if (rf > 0 && t == LogicalTypeRoot.DOUBLE) {
            return rf <= 3;
        }
        if (rf > 0 && t == LogicalTypeRoot.FLOAT) {
            return rf <= 2;
        }
        if (from.getTypeRoot() == LogicalTypeRoot.FLOAT && t == LogicalTypeRoot.DOUBLE) {
            return true;
        }
        return from.getTypeRoot() == LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE
                && t == LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE
                && timestampUnit(from) == 3 && timestampUnit(to) == 6;
    }

    /** The pairs {@code gatun_flink_cast} admits (functions.json). */
    static boolean flinkCastable(LogicalType from, LogicalType to) {
        boolean numFrom = isNumeric(from) || isBoolean(from);
        boolean numTo = isNumeric(to) || isBoolean(to);
        if ((numFrom || isString(from)) && (numTo || isString(to))) {
            return true;
        }
        LogicalTypeRoot f = from.getTypeRoot();
        LogicalTypeRoot t = to.getTypeRoot();
        boolean tsFrom = f == LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE && timestampUnit(from) <= 6;
        boolean tsTo = t == LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE && timestampUnit(to) <= 6;
        return (f == LogicalTypeRoot.DATE && tsTo) || (tsFrom && t == LogicalTypeRoot.DATE) || (tsFrom && tsTo);
    }
}
