package dev.gatun.transpose.entry;

import dev.gatun.arrow.types.Field;
import dev.gatun.arrow.vector.Vectors;
import dev.gatun.transpose.types.TypeMapping;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * The columns an entry transpose writes, from the read paths of the Calc: one column per path
 * ({@code [i]} a whole field, {@code [i, j, ...]} a field of nested ROWs, named with dots), and
 * the tree of row readers that reaches exactly those fields. Paths sharing a prefix share the read
 * of that nested row.
 */
final class ReadPlan {
    final List<Field> fields;
    /** The writer of each column, in column order. */
    final ValueWriter[] columns;
    /**
     * The columns whose vectors start all NULL: nullable fixed-width fields under a ROW, which
     * the NULL row above them leaves unwritten instead of marking each one NULL.
     */
    final boolean[] nullUntilWritten;
    final RowFields root;

    private ReadPlan(List<Field> fields, ValueWriter[] columns, boolean[] nullUntilWritten, RowFields root) {
        this.fields = fields;
        this.columns = columns;
        this.nullUntilWritten = nullUntilWritten;
        this.root = root;
    }

    static ReadPlan of(RowType input, List<int[]> paths, TypeMapping types, BytesWriters.Scratch scratch) {
        List<Field> fields = new ArrayList<>(paths.size());
        ValueWriter[] columns = new ValueWriter[paths.size()];
        boolean[] nullUntilWritten = new boolean[paths.size()];
        List<Leaf> leaves = new ArrayList<>(paths.size());
        for (int c = 0; c < paths.size(); c++) {
            int[] path = paths.get(c).clone();
            StringBuilder name = new StringBuilder();
            boolean nullable = false;
            LogicalType type = input;
            String last = null;
            if (path.length == 0) {
                throw new IllegalArgumentException("read path " + c + " is empty");
            }
            for (int d = 0; d < path.length; d++) {
                if (!(type instanceof RowType row)) {
                    throw new IllegalArgumentException("read path " + c + " enters " + name + " of type "
                            + type.asSummaryString() + ", which is not a ROW");
                }
                if (path[d] < 0 || path[d] >= row.getFieldCount()) {
                    throw new IllegalArgumentException("read path " + c + " selects field " + path[d] + " of a row of "
                            + row.getFieldCount() + " fields" + (d == 0 ? "" : " (" + name + ")"));
                }
                last = row.getFieldNames().get(path[d]);
                name.append(d == 0 ? "" : ".").append(last);
                type = row.getTypeAt(path[d]);
                nullable |= type.isNullable();
            }
            Field field = types.field(name.toString(), type);
            if (nullable && !field.nullable()) { // a NULL parent row makes the leaf NULL
                field = new Field(field.name(), field.type(), true, field.children(), field.metadata());
            }
            fields.add(field);
            columns[c] = Writers.create(last, type, field, scratch);
            nullUntilWritten[c] = path.length > 1 && field.nullable() && Vectors.canStartAllNull(field);
            leaves.add(new Leaf(path, columns[c], nullUntilWritten[c]));
        }
        return new ReadPlan(List.copyOf(fields), columns, nullUntilWritten, rowFields(input, leaves, 0).all());
    }

    /** A column's read path and writer; {@code nullUntilWritten}: a NULL row above it writes nothing. */
    private record Leaf(int[] path, ValueWriter writer, boolean nullUntilWritten) {}

    /** A row's readers: of all its selected fields, and of those its NULL marks one by one (null if none). */
    private record Readers(RowFields all, RowFields nulls) {}

    /** Readers of the fields of {@code row} that the leaves (all below it, at {@code depth}) select. */
    private static Readers rowFields(RowType row, List<Leaf> leaves, int depth) {
        List<Integer> positions = new ArrayList<>();
        List<ValueWriter> writers = new ArrayList<>();
        List<Integer> nullPositions = new ArrayList<>();
        List<ValueWriter> nullWriters = new ArrayList<>();
        Map<Integer, List<Leaf>> nested = new LinkedHashMap<>();
        for (Leaf leaf : leaves) {
            int pos = leaf.path[depth];
            if (leaf.path.length == depth + 1) {
                positions.add(pos);
                writers.add(leaf.writer);
                if (!leaf.nullUntilWritten) {
                    nullPositions.add(pos);
                    nullWriters.add(leaf.writer);
                }
            } else {
                nested.computeIfAbsent(pos, p -> new ArrayList<>()).add(leaf);
            }
        }
        for (Map.Entry<Integer, List<Leaf>> e : nested.entrySet()) {
            int pos = e.getKey();
            Readers child = rowFields((RowType) row.getTypeAt(pos), e.getValue(), depth + 1);
            ValueWriter writer = new NestedFieldsWriter(row.getFieldNames().get(pos), child.all, child.nulls);
            positions.add(pos);
            writers.add(writer);
            if (child.nulls != null) {
                nullPositions.add(pos);
                nullWriters.add(writer);
            }
        }
        int arity = row.getFieldCount();
        return new Readers(readers(arity, positions, writers),
                nullWriters.isEmpty() ? null : readers(arity, nullPositions, nullWriters));
    }

    private static RowFields readers(int arity, List<Integer> positions, List<ValueWriter> writers) {
        int[] pos = positions.stream().mapToInt(Integer::intValue).toArray();
        return new RowFields(arity, pos, writers.toArray(ValueWriter[]::new));
    }
}
