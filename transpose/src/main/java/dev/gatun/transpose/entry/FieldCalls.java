package dev.gatun.transpose.entry;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.table.data.RowData;

/** Calls the writers of a row's selected fields; see {@link UnrolledFieldCalls}. */
abstract class FieldCalls {
    private static final byte[] TEMPLATE = template();
    /** Beyond this many writer signatures, a copy is no longer kept for the next operator with the same one. */
    private static final int MAX_SHARED = 256;
    private static final Map<List<Class<?>>, FieldCalls> SHARED = new ConcurrentHashMap<>();

    /** A binary row in place: null bits and slots of the row starting at {@code row}. */
    abstract void binary(ValueWriter[] writers, int[] positions, int[] slots, byte[] mem, int row, int index);

    /** Any row, through its getters. */
    abstract void fields(ValueWriter[] writers, int[] positions, RowData row, int index);

    /** Every field NULL (the row itself is NULL). */
    abstract void nulls(ValueWriter[] writers, int index);

    /**
     * The copy of {@link UnrolledFieldCalls} for this sequence of writer classes: each site then
     * sees one class, as with code generated per schema. The copy is shared by every
     * {@code RowFields} with the same sequence (the calls hold no state), so an operator that opens
     * again, after a restart or in the next job, runs the code the JIT already compiled instead of
     * a new class that starts interpreted and deoptimizes its callers.
     */
    static FieldCalls forWriters(ValueWriter[] writers) {
        List<Class<?>> signature = Arrays.stream(writers).<Class<?>>map(Object::getClass).toList();
        FieldCalls shared = SHARED.get(signature);
        if (shared != null) {
            return shared;
        }
        synchronized (SHARED) { // once per signature: keeps the bound exact
            shared = SHARED.get(signature);
            if (shared != null) {
                return shared;
            }
            FieldCalls copy = specialized();
            if (SHARED.size() < MAX_SHARED) {
                SHARED.put(signature, copy);
            }
            return copy;
        }
    }

    /**
     * A fresh copy of {@link UnrolledFieldCalls} (a hidden class, unloaded with its last user),
     * so its call sites carry one signature's profile only; the shared class if that is not possible.
     */
    private static FieldCalls specialized() {
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
