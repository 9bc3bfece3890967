package dev.gatun.arrow.vector;

import dev.gatun.arrow.memory.BatchMemory;
import dev.gatun.arrow.types.ArrowType;
import dev.gatun.arrow.types.Field;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/** Creates the vector class for each Arrow type: written (allocating) or imported (a view). */
public final class Vectors {
    private Vectors() {}

    /**
     * Allocates a written vector for {@code field} with room for {@code capacity} rows. On failure
     * the buffers already allocated stay with {@code memory}, whose close frees them.
     */
    public static ValueVector allocate(Field field, BatchMemory memory, int capacity) {
        return switch (field.type()) {
            case ArrowType.Null n -> new NullVector(field, memory, capacity);
            case ArrowType.Bool b -> new BoolVector(field, memory, capacity);
            case ArrowType.Int i -> switch (i.bitWidth()) {
                case 8 -> new Int8Vector(field, memory, capacity);
                case 16 -> new Int16Vector(field, memory, capacity);
                case 32 -> new Int32Vector(field, memory, capacity);
                default -> new Int64Vector(field, memory, capacity);
            };
            case ArrowType.FloatingPoint f -> f.bitWidth() == 32
                    ? new Float32Vector(field, memory, capacity) : new Float64Vector(field, memory, capacity);
            case ArrowType.Decimal128 d -> new DecimalVector(field, memory, capacity);
            case ArrowType.Utf8 u -> new VarBinaryVector(field, memory, capacity);
            case ArrowType.Binary b -> new VarBinaryVector(field, memory, capacity);
            case ArrowType.FixedSizeBinary f -> new FixedSizeBinaryVector(field, memory, capacity, f.byteWidth());
            case ArrowType.Date32 d -> new Int32Vector(field, memory, capacity);
            case ArrowType.Time32 t -> new Int32Vector(field, memory, capacity);
            case ArrowType.IntervalYearMonth m -> new Int32Vector(field, memory, capacity);
            case ArrowType.Timestamp t -> new Int64Vector(field, memory, capacity);
            case ArrowType.Duration d -> new Int64Vector(field, memory, capacity);
            case ArrowType.ListType l -> new ListVector(field, memory, capacity,
                    allocate(field.child(0), memory, capacity));
            case ArrowType.MapType m -> new MapVector(field, memory, capacity,
                    (StructVector) allocate(field.child(0), memory, capacity));
            case ArrowType.StructType s -> {
                List<ValueVector> children = new ArrayList<>(field.children().size());
                for (Field c : field.children()) {
                    children.add(allocate(c, memory, capacity));
                }
                yield new StructVector(field, memory, capacity, children);
            }
        };
    }

    /**
     * Whether the written vector for {@code field} marks a NULL in its bitmap alone, and so can
     * {@link ValueVector#startAllNull start all NULL}: the fixed-width and boolean types.
     */
    public static boolean canStartAllNull(Field field) {
        return switch (field.type()) {
            case ArrowType.Bool b -> true;
            case ArrowType.Int i -> true;
            case ArrowType.FloatingPoint f -> true;
            case ArrowType.Decimal128 d -> true;
            case ArrowType.FixedSizeBinary f -> true;
            case ArrowType.Date32 d -> true;
            case ArrowType.Time32 t -> true;
            case ArrowType.IntervalYearMonth m -> true;
            case ArrowType.Timestamp t -> true;
            case ArrowType.Duration d -> true;
            default -> false;
        };
    }

    /**
     * A read-only view of validated, imported buffers. {@code view.buffers()} are in C Data
     * order; {@code scope} is the import's arena scope.
     */
    public static ValueVector view(Field field, ValueVector.View view, List<ValueVector> children,
                                   MemorySegment.Scope scope) {
        return switch (field.type()) {
            case ArrowType.Null n -> new NullVector(field, view, scope);
            case ArrowType.Bool b -> new BoolVector(field, view, scope);
            case ArrowType.Int i -> switch (i.bitWidth()) {
                case 8 -> new Int8Vector(field, view, scope);
                case 16 -> new Int16Vector(field, view, scope);
                case 32 -> new Int32Vector(field, view, scope);
                default -> new Int64Vector(field, view, scope);
            };
            case ArrowType.FloatingPoint f -> f.bitWidth() == 32
                    ? new Float32Vector(field, view, scope) : new Float64Vector(field, view, scope);
            case ArrowType.Decimal128 d -> new DecimalVector(field, view, scope);
            case ArrowType.Utf8 u -> new VarBinaryVector(field, view, scope);
            case ArrowType.Binary b -> new VarBinaryVector(field, view, scope);
            case ArrowType.FixedSizeBinary f -> new FixedSizeBinaryVector(field, view, scope, f.byteWidth());
            case ArrowType.Date32 d -> new Int32Vector(field, view, scope);
            case ArrowType.Time32 t -> new Int32Vector(field, view, scope);
            case ArrowType.IntervalYearMonth m -> new Int32Vector(field, view, scope);
            case ArrowType.Timestamp t -> new Int64Vector(field, view, scope);
            case ArrowType.Duration d -> new Int64Vector(field, view, scope);
            case ArrowType.ListType l -> new ListVector(field, view, scope, children.get(0));
            case ArrowType.MapType m -> new MapVector(field, view, scope, (StructVector) children.get(0));
            case ArrowType.StructType s -> new StructVector(field, view, scope, children);
        };
    }

    /** {@code n_buffers} in the C Data Interface for {@code type}. */
    public static int bufferCount(ArrowType type) {
        return switch (type) {
            case ArrowType.Null n -> 0;
            case ArrowType.StructType s -> 1;
            case ArrowType.Utf8 u -> 3;
            case ArrowType.Binary b -> 3;
            default -> 2;
        };
    }

    /** Bytes per value of fixed-width types (0 for the others; Bool is bit-packed). */
    public static int byteWidth(ArrowType type) {
        return switch (type) {
            case ArrowType.Int i -> i.bitWidth() / 8;
            case ArrowType.FloatingPoint f -> f.bitWidth() / 8;
            case ArrowType.Decimal128 d -> 16;
            case ArrowType.FixedSizeBinary f -> f.byteWidth();
            case ArrowType.Date32 d -> 4;
            case ArrowType.Time32 t -> 4;
            case ArrowType.IntervalYearMonth m -> 4;
            case ArrowType.Timestamp t -> 8;
            case ArrowType.Duration d -> 8;
            default -> 0;
        };
    }
}
