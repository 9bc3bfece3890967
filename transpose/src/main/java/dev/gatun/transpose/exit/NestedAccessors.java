package dev.gatun.transpose.exit;

import dev.gatun.arrow.vector.ListVector;
import dev.gatun.arrow.vector.StructVector;
import dev.gatun.arrow.vector.ValueVector;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;

/**
 * Accessors of nested values. Each get returns a new small view (a few fields, no data copied):
 * views are cheap and a caller may hold two at once, which a single reused view would break.
 */
final class NestedAccessors {
    private NestedAccessors() {}

    /** List into ARRAY. */
    static final class List extends Accessor {
        private final Accessor element;
        private ListVector vector;

        List(String type, Accessor element) {
            super(type);
            this.element = element;
        }

        @Override
        void bind(ValueVector v) {
            vector = (ListVector) v;
            element.bind(vector.child());
        }

        @Override
        boolean isNull(int i) {
            return vector.isNull(i);
        }

        @Override
        ArrayData getArray(int i) {
            int start = vector.listStart(i);
            return new ColumnarArray(element, start, vector.listEnd(i) - start);
        }
    }

    /** Map, or List of Struct(key, value), into MAP or MULTISET. */
    static final class Map extends Accessor {
        private final Accessor key;
        private final Accessor value;
        private ListVector vector;

        Map(String type, Accessor key, Accessor value) {
            super(type);
            this.key = key;
            this.value = value;
        }

        @Override
        void bind(ValueVector v) {
            vector = (ListVector) v;
            StructVector entries = (StructVector) vector.child();
            key.bind(entries.child(0));
            value.bind(entries.child(1));
        }

        @Override
        boolean isNull(int i) {
            return vector.isNull(i);
        }

        @Override
        MapData getMap(int i) {
            int start = vector.listStart(i);
            return new ColumnarMap(key, value, start, vector.listEnd(i) - start);
        }
    }

    /** Struct into ROW. */
    static final class Struct extends Accessor {
        private final Accessor[] fields;
        private StructVector vector;

        Struct(String type, Accessor[] fields) {
            super(type);
            this.fields = fields.clone();
        }

        @Override
        void bind(ValueVector v) {
            vector = (StructVector) v;
            for (int j = 0; j < fields.length; j++) {
                fields[j].bind(vector.child(j));
            }
        }

        @Override
        boolean isNull(int i) {
            return vector.isNull(i);
        }

        @Override
        RowData getRow(int i) {
            return new StructRow(fields, i);
        }
    }
}
