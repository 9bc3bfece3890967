package dev.gatun.transpose.entry;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import org.apache.flink.table.data.RowData;

/** Calls the writers of a row's selected fields; see {@link UnrolledFieldCalls}. */
abstract class FieldCalls {
    private static final byte[] TEMPLATE = template();

    /** A binary row in place: null bits and slots of the row starting at {@code row}. */
    abstract void binary(ValueWriter[] writers, int[] positions, int[] slots, byte[] mem, int row, int index);

    /** Any row, through its getters. */
    abstract void fields(ValueWriter[] writers, int[] positions, RowData row, int index);

    /** Every field NULL (the row itself is NULL). */
    abstract void nulls(ValueWriter[] writers, int index);

    /**
     * A fresh copy of {@link UnrolledFieldCalls} (a hidden class, unloaded with its last instance),
     * so its call sites carry this schema's profile only; the shared class if that is not possible.
     */
    static FieldCalls specialized() {
        if (TEMPLATE != null) {
            try {
                Class<?> copy = MethodHandles.lookup().defineHiddenClass(TEMPLATE, true).lookupClass();
                return (FieldCalls) copy.getDeclaredConstructor().newInstance();
            } catch (ReflectiveOperationException | LinkageError | SecurityException e) {
                // fall through: correct, only slower when many schemas share the JVM
            }
        }
        return new UnrolledFieldCalls();
    }

    private static byte[] template() {
        try (InputStream in = UnrolledFieldCalls.class.getResourceAsStream("UnrolledFieldCalls.class")) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            return null;
        }
    }
}
