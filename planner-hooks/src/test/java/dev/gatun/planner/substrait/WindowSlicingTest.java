package dev.gatun.planner.substrait;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Any;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The window message the native side decodes (window_plan.rs), read back field by field. */
class WindowSlicingTest {
    /** Scalar fields by number (the last value), the packed lists 7 and 8, the zone name. */
    private record Message(Map<Integer, Long> scalars, List<Long> transitions, List<Long> offsets,
                           List<Long> properties, String zone) {}

    private static Message read(Any any) throws Exception {
        assertEquals(WindowSlicing.TYPE_URL, any.getTypeUrl());
        CodedInputStream in = CodedInputStream.newInstance(any.getValue().toByteArray());
        Map<Integer, Long> scalars = new HashMap<>();
        List<Long> transitions = new ArrayList<>();
        List<Long> offsets = new ArrayList<>();
        List<Long> properties = new ArrayList<>();
        String zone = null;
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            int field = WireFormat.getTagFieldNumber(tag);
            if (field == 6) {
                zone = in.readString();
            } else if (field == 7 || field == 8 || field == 10) {
                int limit = in.pushLimit(in.readRawVarint32());
                while (in.getBytesUntilLimit() > 0) {
                    (field == 7 ? transitions : field == 8 ? offsets : properties).add(in.readInt64());
                }
                in.popLimit(limit);
            } else {
                scalars.put(field, in.readInt64());
            }
        }
        return new Message(scalars, transitions, offsets, properties, zone);
    }

    @Test
    void aGlobalPhasesWindowCarriesItsPropertiesInOutputOrderAndFlinksCountStar() throws Exception {
        WindowSlicing local = new WindowSlicing(WindowSlicing.Kind.HOP, 3, 10_000, 2_000, 0, null);
        Message m = read(local.withResult(5, List.of(WindowSlicing.Property.WINDOW_END,
                WindowSlicing.Property.WINDOW_START, WindowSlicing.Property.WINDOW_TIME), 4, true).toAny());
        assertEquals(List.of(2L, 1L, 3L), m.properties());
        assertEquals(Map.of(1, 2L, 2, 5L, 3, 10_000L, 4, 2_000L, 5, 0L, 11, 4L, 12, 1L), m.scalars());
        Message plain = read(local.withResult(5, List.of(), 0, false).toAny());
        assertTrue(plain.properties().isEmpty() && !plain.scalars().containsKey(11) && !plain.scalars().containsKey(12));
    }

    @Test
    void aWindowOnTimestampCarriesNoZone() throws Exception {
        Message m = read(new WindowSlicing(WindowSlicing.Kind.HOP, 3, 10_000, 2_000, -300, null).toAny());
        assertEquals(Map.of(1, 2L, 2, 3L, 3, 10_000L, 4, 2_000L, 5, -300L), m.scalars());
        assertTrue(m.transitions().isEmpty() && m.offsets().isEmpty() && m.zone() == null);
    }

    @Test
    void anLtzWindowCarriesTheZonesTransitionsFromTheJdk() throws Exception {
        ZoneId la = ZoneId.of("America/Los_Angeles");
        Message m = read(new WindowSlicing(WindowSlicing.Kind.TUMBLE, 0, 86_400_000, 0, 0, la).toAny());
        assertEquals("America/Los_Angeles", m.zone());
        assertEquals(1L, m.scalars().get(9), "Los Angeles observes daylight saving time");
        assertEquals(m.transitions().size() + 1, m.offsets().size());
        assertEquals(-28_378L, m.offsets().getFirst(), "local mean time before 1883");
        // 2024's spring-forward, and a rule-made transition far ahead
        int spring = m.transitions().indexOf(1_710_064_800_000L);
        assertEquals(-25_200L, m.offsets().get(spring + 1));
        for (int i = 0; i < m.transitions().size(); i++) {
            long t = m.transitions().get(i);
            assertEquals(la.getRules().getOffset(Instant.ofEpochMilli(t)).getTotalSeconds(), m.offsets().get(i + 1));
        }
        assertTrue(Instant.ofEpochMilli(m.transitions().getLast()).toString().startsWith("2400-"),
                Instant.ofEpochMilli(m.transitions().getLast()).toString());
        Message shanghai = read(new WindowSlicing(WindowSlicing.Kind.CUMULATE, 1, 86_400_000, 3_600_000, 0,
                ZoneId.of("Asia/Shanghai")).toAny());
        assertFalse(shanghai.scalars().containsKey(9) && shanghai.scalars().get(9) != 0, "no DST now");
        assertEquals(28_800L, shanghai.offsets().getLast());
    }
}
