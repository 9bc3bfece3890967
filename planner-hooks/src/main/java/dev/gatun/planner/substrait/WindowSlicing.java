package dev.gatun.planner.substrait;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;

/**
 * The window of a local window aggregate, as the {@code enhancement} of its Substrait
 * {@code AggregateRel} (native/src/ops/local_aggregate/window_plan.rs has the message): the window
 * table function, its size, step and offset in ms, the rowtime's column among the aggregate's input
 * columns, and for a {@code TIMESTAMP_LTZ} rowtime the session zone as a table of its offset
 * transitions, taken from this JVM's tz database (which Flink's own window operators would use).
 *
 * <p>The global (or one-phase) window aggregate's plan adds the window properties it appends after the
 * measures and Flink's COUNT(*) that tells empty windows (hopping windows).
 *
 * @param zone the shift zone, or null for none (a {@code TIMESTAMP} rowtime)
 * @param properties the window properties after the measures, in output order (empty for a local phase)
 * @param countStar index + 1 of the COUNT(*) measure Flink checks to skip empty windows, 0 for none
 * @param countStarInserted whether Flink inserted that measure (it is then not output)
 */
public record WindowSlicing(Kind kind, int timeColumn, long size, long step, long offset, ZoneId zone,
                            List<Property> properties, int countStar, boolean countStarInserted) {
    /** The {@code Any} type URL the native side knows the message by. */
    public static final String TYPE_URL = "type.gatun.dev/gatun.WindowSlicing";

    /**
     * Rules of zones with daylight saving time go on forever; the table stops at this year (the
     * slices of rowtimes after it would use the offset of that year's last transition).
     */
    static final int LAST_TABLE_YEAR = 2400;

    /** The window properties a window aggregate outputs, numbered as in the message. */
    public enum Property {
        WINDOW_START(1), WINDOW_END(2), WINDOW_TIME(3);

        final int wire;

        Property(int wire) {
            this.wire = wire;
        }
    }

    public WindowSlicing {
        properties = List.copyOf(properties);
        if (countStar < 0 || (countStarInserted && countStar == 0)) {
            throw new IllegalArgumentException("countStar " + countStar + ", inserted " + countStarInserted);
        }
    }

    /** The window of a local phase (no properties, no COUNT(*) to check). */
    public WindowSlicing(Kind kind, int timeColumn, long size, long step, long offset, ZoneId zone) {
        this(kind, timeColumn, size, step, offset, zone, List.of(), 0, false);
    }

    /** This window as a global phase's, which outputs {@code properties} and checks {@code countStar}. */
    public WindowSlicing withResult(int timeColumn, List<Property> properties, int countStar,
                                    boolean countStarInserted) {
        return new WindowSlicing(kind, timeColumn, size, step, offset, zone, properties, countStar, countStarInserted);
    }

    /** The window table functions, numbered as in the message. */
    public enum Kind {
        TUMBLE(1), HOP(2), CUMULATE(3);

        final int wire;

        Kind(int wire) {
            this.wire = wire;
        }
    }

    /**
     * The message in an {@code Any}, with an absorbed row-time mini-batch assigner's interval (field
     * 13) and the WatermarkAssigner's watermark expression under it (field 14, a Substrait
     * {@code Expression}).
     */
    public Any toAny(long miniBatchMillis, io.substrait.proto.Expression watermark) {
        if (miniBatchMillis <= 0) {
            throw new IllegalArgumentException("mini-batch interval " + miniBatchMillis + " must be positive");
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        try {
            out.writeInt64(13, miniBatchMillis);
            out.writeBytes(14, watermark.toByteString());
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Any plain = toAny();
        return plain.toBuilder().setValue(plain.getValue().concat(ByteString.copyFrom(bytes.toByteArray()))).build();
    }

    /** The message in an {@code Any}. */
    public Any toAny() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        try {
            out.writeUInt32(1, kind.wire);
            out.writeUInt32(2, timeColumn);
            out.writeInt64(3, size);
            out.writeInt64(4, step);
            out.writeInt64(5, offset);
            if (zone != null) {
                List<Long> transitions = new ArrayList<>();
                List<Long> offsets = new ArrayList<>();
                table(zone.getRules(), transitions, offsets);
                out.writeString(6, zone.getId());
                packed(out, 7, transitions);
                packed(out, 8, offsets);
                out.writeBool(9, TimeZone.getTimeZone(zone).useDaylightTime());
            }
            if (!properties.isEmpty()) {
                List<Long> wires = new ArrayList<>();
                properties.forEach(p -> wires.add((long) p.wire));
                out.writeTag(10, com.google.protobuf.WireFormat.WIRETYPE_LENGTH_DELIMITED);
                int size = 0;
                for (long w : wires) {
                    size += CodedOutputStream.computeUInt32SizeNoTag((int) w);
                }
                out.writeUInt32NoTag(size);
                for (long w : wires) {
                    out.writeUInt32NoTag((int) w);
                }
            }
            if (countStar != 0) {
                out.writeInt32(11, countStar);
            }
            if (countStarInserted) {
                out.writeBool(12, true);
            }
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Any.newBuilder().setTypeUrl(TYPE_URL).setValue(ByteString.copyFrom(bytes.toByteArray())).build();
    }

    private static void packed(CodedOutputStream out, int field, List<Long> values) throws IOException {
        int size = 0;
        for (long v : values) {
            size += CodedOutputStream.computeInt64SizeNoTag(v);
        }
        out.writeTag(field, com.google.protobuf.WireFormat.WIRETYPE_LENGTH_DELIMITED);
        out.writeUInt32NoTag(size);
        for (long v : values) {
            out.writeInt64NoTag(v);
        }
    }

    /** The zone's transitions (instants in ms) and offsets (s; one more, the first before them all). */
    static void table(ZoneRules rules, List<Long> transitions, List<Long> offsets) {
        List<ZoneOffsetTransition> all = new ArrayList<>(rules.getTransitions());
        if (!rules.getTransitionRules().isEmpty()) {
            Instant end = ZonedDateTime.of(LAST_TABLE_YEAR, 12, 31, 23, 59, 59, 0, ZoneOffset.UTC).toInstant();
            Instant from = all.isEmpty() ? Instant.EPOCH : all.getLast().getInstant();
            for (ZoneOffsetTransition t = rules.nextTransition(from); t != null && t.getInstant().isBefore(end);
                 t = rules.nextTransition(t.getInstant())) {
                all.add(t);
            }
        }
        offsets.add((long) (all.isEmpty() ? rules.getOffset(Instant.EPOCH) : all.getFirst().getOffsetBefore())
                .getTotalSeconds());
        for (ZoneOffsetTransition t : all) {
            transitions.add(t.getInstant().toEpochMilli());
            offsets.add((long) t.getOffsetAfter().getTotalSeconds());
        }
    }

    /** What EXPLAIN prints. */
    public String summary() {
        StringBuilder sb = new StringBuilder(kind.name()).append("(size=").append(size).append("ms");
        if (kind != Kind.TUMBLE) {
            sb.append(kind == Kind.HOP ? ", slide=" : ", step=").append(step).append("ms");
        }
        if (offset != 0) {
            sb.append(", offset=").append(offset).append("ms");
        }
        if (zone != null) {
            sb.append(", zone=").append(zone.getId());
        }
        return sb.append(')').toString();
    }
}
