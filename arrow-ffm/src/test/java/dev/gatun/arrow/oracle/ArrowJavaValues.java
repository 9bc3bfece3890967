package dev.gatun.arrow.oracle;

import dev.gatun.arrow.testing.Bin;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;

/** Reads Arrow Java vectors as the canonical values of {@code TestValues}. */
final class ArrowJavaValues {
    private ArrowJavaValues() {}

    static List<List<Object>> columns(VectorSchemaRoot root) {
        List<List<Object>> out = new ArrayList<>();
        for (FieldVector v : root.getFieldVectors()) {
            List<Object> values = new ArrayList<>();
            for (int r = 0; r < root.getRowCount(); r++) {
                values.add(read(v, r));
            }
            out.add(values);
        }
        return out;
    }

    static Object read(FieldVector v, int row) {
        if (v instanceof NullVector || v.isNull(row)) {
            return null;
        }
        return switch (v) {
            case BitVector b -> b.get(row) != 0;
            case TinyIntVector x -> x.get(row);
            case SmallIntVector x -> x.get(row);
            case IntVector x -> x.get(row);
            case BigIntVector x -> x.get(row);
            case Float4Vector x -> x.get(row);
            case Float8Vector x -> x.get(row);
            case DecimalVector x -> x.getObject(row);
            case FixedSizeBinaryVector x -> new Bin(x.get(row));
            case VarCharVector x -> new String(x.get(row), StandardCharsets.UTF_8);
            case VarBinaryVector x -> new Bin(x.get(row));
            case MapVector m -> {
                StructVector entries = (StructVector) m.getDataVector();
                FieldVector keys = (FieldVector) entries.getChildByOrdinal(0);
                FieldVector values = (FieldVector) entries.getChildByOrdinal(1);
                List<Object> out = new ArrayList<>();
                for (int k = m.getElementStartIndex(row); k < m.getElementEndIndex(row); k++) {
                    out.add(Arrays.asList(read(keys, k), read(values, k)));
                }
                yield out;
            }
            case ListVector l -> {
                List<Object> out = new ArrayList<>();
                for (int k = l.getElementStartIndex(row); k < l.getElementEndIndex(row); k++) {
                    out.add(read(l.getDataVector(), k));
                }
                yield out;
            }
            case StructVector s -> {
                List<Object> out = new ArrayList<>();
                for (FieldVector c : s.getChildrenFromFields()) {
                    out.add(read(c, row));
                }
                yield out;
            }
            case BaseFixedWidthVector w -> w.getTypeWidth() == 4
                    ? (Object) w.getDataBuffer().getInt((long) row * 4)
                    : (Object) w.getDataBuffer().getLong((long) row * 8);
            default -> throw new IllegalArgumentException("no canonical reader for " + v.getClass());
        };
    }
}
