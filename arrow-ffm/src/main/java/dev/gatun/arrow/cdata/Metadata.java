package dev.gatun.arrow.cdata;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The C Data Interface metadata encoding: int32 pair count, then for each pair int32 key length,
 * key bytes, int32 value length, value bytes (native byte order, no terminators).
 */
final class Metadata {
    private static final int MAX_PAIRS = 1 << 16;
    private static final int MAX_BYTES = 1 << 24;

    private Metadata() {}

    /** The encoding, or null for no metadata (exported as a NULL pointer). Keys are sorted. */
    static byte[] encode(Map<String, String> metadata) {
        if (metadata.isEmpty()) {
            return null;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writeInt(out, metadata.size());
        for (Map.Entry<String, String> e : new TreeMap<>(metadata).entrySet()) {
            byte[] k = e.getKey().getBytes(StandardCharsets.UTF_8);
            byte[] v = e.getValue().getBytes(StandardCharsets.UTF_8);
            writeInt(out, k.length);
            out.writeBytes(k);
            writeInt(out, v.length);
            out.writeBytes(v);
        }
        return out.toByteArray();
    }

    private static void writeInt(ByteArrayOutputStream out, int v) {
        out.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.nativeOrder()).putInt(v).array());
    }

    /** Decodes metadata at {@code pointer} (NULL: none). Lengths are range-checked before reading. */
    static Map<String, String> decode(MemorySegment pointer, String where) {
        if (pointer.address() == 0) {
            return Map.of();
        }
        MemorySegment m = pointer.reinterpret(MAX_BYTES);
        int pairs = m.get(ValueLayout.JAVA_INT_UNALIGNED, 0);
        if (pairs < 0 || pairs > MAX_PAIRS) {
            throw new ArrowFormatException(where, "metadata pair count " + pairs + " outside 0.." + MAX_PAIRS);
        }
        Map<String, String> out = new LinkedHashMap<>();
        long at = 4;
        for (int i = 0; i < pairs; i++) {
            int kLen = length(m, at, where, "key", i);
            String key = string(m, at + 4, kLen);
            at += 4 + kLen;
            int vLen = length(m, at, where, "value", i);
            String value = string(m, at + 4, vLen);
            at += 4 + vLen;
            out.put(key, value);
        }
        return out;
    }

    private static int length(MemorySegment m, long at, String where, String what, int pair) {
        if (at + 4 > MAX_BYTES) {
            throw new ArrowFormatException(where, "metadata longer than " + MAX_BYTES + " bytes");
        }
        int len = m.get(ValueLayout.JAVA_INT_UNALIGNED, at);
        if (len < 0 || at + 4 + len > MAX_BYTES) {
            throw new ArrowFormatException(where, "metadata " + what + " " + pair + " has invalid length " + len);
        }
        return len;
    }

    private static String string(MemorySegment m, long at, int len) {
        byte[] bytes = new byte[len];
        MemorySegment.copy(m, ValueLayout.JAVA_BYTE, at, bytes, 0, len);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
