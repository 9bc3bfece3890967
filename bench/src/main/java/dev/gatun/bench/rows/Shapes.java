package dev.gatun.bench.rows;

import java.util.List;
import java.util.stream.IntStream;

/** Every row shape, by name. */
public final class Shapes {
    public static final RowShape BID = new BidShape();
    public static final RowShape PERSON = new PersonShape();
    public static final RowShape AUCTION = new AuctionShape();
    public static final RowShape MIXED20 = new Mixed20Shape();
    public static final RowShape STRINGS = new StringsShape();
    public static final RowShape WIDE40 = new Wide40Shape();
    public static final RowShape CROSSING10 = new Crossing10Shape();

    private static final List<RowShape> ALL = List.of(BID, PERSON, AUCTION, MIXED20, STRINGS, WIDE40, CROSSING10);
    /** Tables of the end-to-end queries only, not of the transposition benchmarks ({@link #all()}). */
    private static final List<RowShape> TABLES_ONLY = List.of(new LineitemShape());

    private Shapes() {}

    public static List<RowShape> all() {
        return ALL;
    }

    public static RowShape byName(String name) {
        for (List<RowShape> shapes : List.of(ALL, TABLES_ONLY)) {
            for (RowShape shape : shapes) {
                if (shape.name().equalsIgnoreCase(name)) {
                    return shape;
                }
            }
        }
        throw new IllegalArgumentException("unknown row shape '" + name + "'; known: "
                + ALL.stream().map(RowShape::name).toList() + ", " + TABLES_ONLY.stream().map(RowShape::name).toList());
    }

    static int[] allFields(int arity) {
        return IntStream.range(0, arity).toArray();
    }
}
