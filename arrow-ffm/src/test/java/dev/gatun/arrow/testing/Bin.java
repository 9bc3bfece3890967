package dev.gatun.arrow.testing;

import java.util.Arrays;
import java.util.HexFormat;

/** A binary value with content equality, for comparing Binary and FixedSizeBinary values. */
public record Bin(byte[] bytes) {
    @Override
    public boolean equals(Object o) {
        return o instanceof Bin b && Arrays.equals(bytes, b.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return "0x" + HexFormat.of().formatHex(bytes);
    }
}
