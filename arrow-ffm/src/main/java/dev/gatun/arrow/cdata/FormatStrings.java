package dev.gatun.arrow.cdata;

import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.TimeUnit;

/** C Data Interface format strings for the supported {@link ArrowType}s. */
public final class FormatStrings {
    /** {@code ARROW_FLAG_MAP_KEYS_SORTED}. */
    static final long MAP_KEYS_SORTED = 4;

    private FormatStrings() {}

    public static String of(ArrowType type) {
        return switch (type) {
            case ArrowType.Null n -> "n";
            case ArrowType.Bool b -> "b";
            case ArrowType.Int i -> switch (i.bitWidth()) {
                case 8 -> "c";
                case 16 -> "s";
                case 32 -> "i";
                default -> "l";
            };
            case ArrowType.FloatingPoint f -> f.bitWidth() == 32 ? "f" : "g";
            case ArrowType.Decimal128 d -> "d:" + d.precision() + "," + d.scale();
            case ArrowType.Utf8 u -> "u";
            case ArrowType.Binary b -> "z";
            case ArrowType.FixedSizeBinary f -> "w:" + f.byteWidth();
            case ArrowType.Date32 d -> "tdD";
            case ArrowType.Time32 t -> "tt" + t.unit().letter();
            case ArrowType.Timestamp t -> "ts" + t.unit().letter() + ":" + (t.zone() == null ? "" : t.zone());
            case ArrowType.IntervalYearMonth m -> "tiM";
            case ArrowType.Duration d -> "tD" + d.unit().letter();
            case ArrowType.ListType l -> "+l";
            case ArrowType.StructType s -> "+s";
            case ArrowType.MapType m -> "+m";
        };
    }

    /**
     * Parses {@code format}; {@code flags} supplies map key ordering.
     *
     * @throws ArrowFormatException naming {@code where} if the string is invalid or unsupported
     */
    public static ArrowType parse(String format, long flags, String where) {
        switch (format) {
            case "n": return ArrowType.NULL;
            case "b": return ArrowType.BOOL;
            case "c": return ArrowType.INT8;
            case "s": return ArrowType.INT16;
            case "i": return ArrowType.INT32;
            case "l": return ArrowType.INT64;
            case "f": return ArrowType.FLOAT32;
            case "g": return ArrowType.FLOAT64;
            case "u": return ArrowType.UTF8;
            case "z": return ArrowType.BINARY;
            case "tdD": return ArrowType.DATE32;
            case "tts": return new ArrowType.Time32(TimeUnit.SECOND);
            case "ttm": return new ArrowType.Time32(TimeUnit.MILLISECOND);
            case "tiM": return ArrowType.INTERVAL_YEAR_MONTH;
            case "+l": return ArrowType.LIST;
            case "+s": return ArrowType.STRUCT;
            case "+m": return new ArrowType.MapType((flags & MAP_KEYS_SORTED) != 0);
            default: break;
        }
        if (format.startsWith("d:")) {
            return decimal(format, where);
        }
        if (format.startsWith("w:")) {
            int width = number(format.substring(2), format, where);
            return new ArrowType.FixedSizeBinary(width);
        }
        if (format.length() >= 4 && format.startsWith("ts") && format.charAt(3) == ':') {
            return new ArrowType.Timestamp(unit(format.charAt(2), format, where), format.substring(4));
        }
        if (format.length() == 3 && format.startsWith("tD")) {
            return new ArrowType.Duration(unit(format.charAt(2), format, where));
        }
        throw new ArrowFormatException(where, "unsupported or invalid format string " + quote(format));
    }

    private static ArrowType decimal(String format, String where) {
        String[] parts = format.substring(2).split(",", -1);
        if (parts.length < 2 || parts.length > 3) {
            throw new ArrowFormatException(where, "invalid decimal format string " + quote(format)
                    + " (expected d:precision,scale[,bitwidth])");
        }
        if (parts.length == 3 && !parts[2].equals("128")) {
            throw new ArrowFormatException(where, "unsupported decimal bit width in " + quote(format)
                    + " (only Decimal128)");
        }
        int precision = number(parts[0], format, where);
        int scale = signedNumber(parts[1], format, where);
        try {
            return new ArrowType.Decimal128(precision, scale);
        } catch (IllegalArgumentException e) {
            throw new ArrowFormatException(where, "invalid decimal " + quote(format) + ": " + e.getMessage());
        }
    }

    private static TimeUnit unit(char letter, String format, String where) {
        TimeUnit unit = TimeUnit.ofLetter(letter);
        if (unit == null) {
            throw new ArrowFormatException(where, "invalid time unit '" + letter + "' in format string " + quote(format));
        }
        return unit;
    }

    private static int signedNumber(String s, String format, String where) {
        return s.startsWith("-") ? -number(s.substring(1), format, where) : number(s, format, where);
    }

    private static int number(String s, String format, String where) {
        if (s.isEmpty() || s.length() > 9 || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new ArrowFormatException(where, "invalid number " + quote(s) + " in format string " + quote(format));
        }
        return Integer.parseInt(s);
    }

    static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length() && i < 64; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '"' || c == '\\') {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.append(s.length() > 64 ? "...\"" : "\"").toString();
    }
}
