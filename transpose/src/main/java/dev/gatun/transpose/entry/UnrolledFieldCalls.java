package dev.gatun.transpose.entry;

import org.apache.flink.table.data.RowData;

/**
 * The per-field calls of one {@link RowFields}, with one call site per field position so that
 * each site sees one writer class. {@link FieldCalls#specialized} loads a separate copy of this
 * class for every {@code RowFields}: the JIT then profiles, and inlines, each schema's writers on
 * their own (what code generation per schema would give), instead of one megamorphic call per
 * field shared by every schema in the JVM. The NULL test and the writer's call are written out at
 * each site rather than in a shared helper: a helper's call would carry one profile for every
 * field again. Fields beyond the first 24 share a loop.
 */
final class UnrolledFieldCalls extends FieldCalls {
    @Override
    void binary(ValueWriter[] writers, int[] positions, int[] slots, byte[] mem, int row, int index) {
        int n = writers.length;
        int k = 0;
        try {
            if (n > 0) { k = 0; ValueWriter w = writers[0]; if (FlinkBinary.isNullField(mem, row, positions[0])) { w.requireNullable(); w.setNull(index); } else { w.fromBinary(mem, row, row + slots[0], index); } }
            if (n > 1) { k = 1; ValueWriter w = writers[1]; if (FlinkBinary.isNullField(mem, row, positions[1])) { w.requireNullable(); w.setNull(index); } else { w.fromBinary(mem, row, row + slots[1], index); } }
            if (n > 2) { k = 2; ValueWriter w = writers[2]; if (FlinkBinary.isNullField(mem, row, positions[2])) { w.requireNullable(); w.setNull(index); } else { w.fromBinary(mem, row, row + slots[2], index); } }
            if (n > 3) { k = 3; ValueWriter w = writers[3]; if (FlinkBinary.isNullField(mem, row, positions[3])) { w.requireNullable(); w.setNull(index); } else { w.fromBinary(mem, row, row + slots[3], index); } }
            if (n > 4) { k = 4; ValueWriter w = writers[4]; if (FlinkBinary.isNullField(mem, row, positions[4])) { w.requireNullable(); w.setNull(index); } else { w.fromBinary(mem, row, row + slots[4], index); } }
            if (n > 5) { k = 5; ValueWriter w = writers[5]; if (FlinkBinary.isNullField(mem, row, positions[5])) { w.requireNullable(); w.setNull(index); } else { w.fromBinary(mem, row, row + slots[5], index); } }
            if (n > 6) { k = 6; ValueWriter w = writers[6]; if (FlinkBinary.isNullField(mem, row, positions[6])) { w.requireNullable(); w.setNull(index); } else { w.fromBinary(mem, row, row + slots[6], index); } }
            if (n > 7) { k = 7; ValueWriter w = writers[7]; if (FlinkBinary.isNullField(mem, row, positions[7])) { w.requireNullable(); w.setNull(index); } else { w.fromBinary(mem, row, row + slots[7], index); } }
            if (n > 8) { k = 8; ValueWriter w = writers[8]; if (FlinkBinary.isNullField(mem, row, positions[8])) { w.requireNullable(); w.setNull(index); } else { w.fromBinary(mem, row, row + slots[8], index); } }
            if (n > 9) { k = 9; ValueWriter w = writers[9]; if (FlinkBinary.isNullField(mem, row, positions[9])) { w.requireNullable(); w.setNull(index); } else { w.fromBinary(mem, row, row + slots[9], index); } }
            if (n > 10) { k = 10; ValueWriter w = writers[10]; if (FlinkBinary.isNullField(mem, row, positions[10])) { w.requireNullable(); w.setNull(index); } else { w.fromBinary(mem, row, row + slots[10], index); } }
            if (n > 11) { k = 11; ValueWriter w = writers[11]; if (FlinkBinary.isNullField(mem, row, positions[11])) { w.requireNullable(); w.setNull(index); } else { w.fromBinary(mem, row, row + slots[11], index); } }
            if (n > 12) { k = 12; ValueWriter w = writers[12]; if (FlinkBinary.isNullField(mem, row, positions[12])) { w.requireNullable(); w.setNull(index); } else { w.fromBinary(mem, row, row + slots[12], index); } }
            if (n > 13) { k = 13; ValueWriter w = writers[13]; if (FlinkBinary.isNullField(mem, row, positions[13])) { w.requireNullable(); w.setNull(index); } else { w.fromBinary(mem, row, row + slots[13], index); } }
            if (n > 14) { k = 14; ValueWriter w = writers[14]; if (FlinkBinary.isNullField(mem, row, positions[14])) { w.requireNullable(); w.setNull(index); } else { w.fromBinary(mem, row, row + slots[14], index); } }
            if (n > 15) { k = 15; ValueWriter w = writers[15]; if (FlinkBinary.isNullField(mem, row, positions[15])) { w.requireNullable(); w.setNull(index); } else { w.fromBinary(mem, row, row + slots[15], index); } }
            if (n > 16) { k = 16; ValueWriter w = writers[16]; if (FlinkBinary.isNullField(mem, row, positions[16])) { w.requireNullable(); w.setNull(index); } else { w.fromBinary(mem, row, row + slots[16], index); } }
            if (n > 17) { k = 17; ValueWriter w = writers[17]; if (FlinkBinary.isNullField(mem, row, positions[17])) { w.requireNullable(); w.setNull(index); } else { w.fromBinary(mem, row, row + slots[17], index); } }
            if (n > 18) { k = 18; ValueWriter w = writers[18]; if (FlinkBinary.isNullField(mem, row, positions[18])) { w.requireNullable(); w.setNull(index); } else { w.fromBinary(mem, row, row + slots[18], index); } }
            if (n > 19) { k = 19; ValueWriter w = writers[19]; if (FlinkBinary.isNullField(mem, row, positions[19])) { w.requireNullable(); w.setNull(index); } else { w.fromBinary(mem, row, row + slots[19], index); } }
            if (n > 20) { k = 20; ValueWriter w = writers[20]; if (FlinkBinary.isNullField(mem, row, positions[20])) { w.requireNullable(); w.setNull(index); } else { w.fromBinary(mem, row, row + slots[20], index); } }
            if (n > 21) { k = 21; ValueWriter w = writers[21]; if (FlinkBinary.isNullField(mem, row, positions[21])) { w.requireNullable(); w.setNull(index); } else { w.fromBinary(mem, row, row + slots[21], index); } }
            if (n > 22) { k = 22; ValueWriter w = writers[22]; if (FlinkBinary.isNullField(mem, row, positions[22])) { w.requireNullable(); w.setNull(index); } else { w.fromBinary(mem, row, row + slots[22], index); } }
            if (n > 23) { k = 23; ValueWriter w = writers[23]; if (FlinkBinary.isNullField(mem, row, positions[23])) { w.requireNullable(); w.setNull(index); } else { w.fromBinary(mem, row, row + slots[23], index); } }
            for (k = 24; k < n; k++) {
                ValueWriter w = writers[k];
                if (FlinkBinary.isNullField(mem, row, positions[k])) {
                    w.requireNullable();
                    w.setNull(index);
                } else {
                    w.fromBinary(mem, row, row + slots[k], index);
                }
            }
        } catch (RuntimeException e) {
            throw FieldFailure.at(writers[k].name, e);
        }
    }

    @Override
    void fields(ValueWriter[] writers, int[] positions, RowData row, int index) {
        int n = writers.length;
        int k = 0;
        try {
            if (n > 0) { k = 0; ValueWriter w = writers[0]; int p = positions[0]; if (row.isNullAt(p)) { w.requireNullable(); w.setNull(index); } else { w.fromRow(row, p, index); } }
            if (n > 1) { k = 1; ValueWriter w = writers[1]; int p = positions[1]; if (row.isNullAt(p)) { w.requireNullable(); w.setNull(index); } else { w.fromRow(row, p, index); } }
            if (n > 2) { k = 2; ValueWriter w = writers[2]; int p = positions[2]; if (row.isNullAt(p)) { w.requireNullable(); w.setNull(index); } else { w.fromRow(row, p, index); } }
            if (n > 3) { k = 3; ValueWriter w = writers[3]; int p = positions[3]; if (row.isNullAt(p)) { w.requireNullable(); w.setNull(index); } else { w.fromRow(row, p, index); } }
            if (n > 4) { k = 4; ValueWriter w = writers[4]; int p = positions[4]; if (row.isNullAt(p)) { w.requireNullable(); w.setNull(index); } else { w.fromRow(row, p, index); } }
            if (n > 5) { k = 5; ValueWriter w = writers[5]; int p = positions[5]; if (row.isNullAt(p)) { w.requireNullable(); w.setNull(index); } else { w.fromRow(row, p, index); } }
            if (n > 6) { k = 6; ValueWriter w = writers[6]; int p = positions[6]; if (row.isNullAt(p)) { w.requireNullable(); w.setNull(index); } else { w.fromRow(row, p, index); } }
            if (n > 7) { k = 7; ValueWriter w = writers[7]; int p = positions[7]; if (row.isNullAt(p)) { w.requireNullable(); w.setNull(index); } else { w.fromRow(row, p, index); } }
            if (n > 8) { k = 8; ValueWriter w = writers[8]; int p = positions[8]; if (row.isNullAt(p)) { w.requireNullable(); w.setNull(index); } else { w.fromRow(row, p, index); } }
            if (n > 9) { k = 9; ValueWriter w = writers[9]; int p = positions[9]; if (row.isNullAt(p)) { w.requireNullable(); w.setNull(index); } else { w.fromRow(row, p, index); } }
            if (n > 10) { k = 10; ValueWriter w = writers[10]; int p = positions[10]; if (row.isNullAt(p)) { w.requireNullable(); w.setNull(index); } else { w.fromRow(row, p, index); } }
            if (n > 11) { k = 11; ValueWriter w = writers[11]; int p = positions[11]; if (row.isNullAt(p)) { w.requireNullable(); w.setNull(index); } else { w.fromRow(row, p, index); } }
            if (n > 12) { k = 12; ValueWriter w = writers[12]; int p = positions[12]; if (row.isNullAt(p)) { w.requireNullable(); w.setNull(index); } else { w.fromRow(row, p, index); } }
            if (n > 13) { k = 13; ValueWriter w = writers[13]; int p = positions[13]; if (row.isNullAt(p)) { w.requireNullable(); w.setNull(index); } else { w.fromRow(row, p, index); } }
            if (n > 14) { k = 14; ValueWriter w = writers[14]; int p = positions[14]; if (row.isNullAt(p)) { w.requireNullable(); w.setNull(index); } else { w.fromRow(row, p, index); } }
            if (n > 15) { k = 15; ValueWriter w = writers[15]; int p = positions[15]; if (row.isNullAt(p)) { w.requireNullable(); w.setNull(index); } else { w.fromRow(row, p, index); } }
            if (n > 16) { k = 16; ValueWriter w = writers[16]; int p = positions[16]; if (row.isNullAt(p)) { w.requireNullable(); w.setNull(index); } else { w.fromRow(row, p, index); } }
            if (n > 17) { k = 17; ValueWriter w = writers[17]; int p = positions[17]; if (row.isNullAt(p)) { w.requireNullable(); w.setNull(index); } else { w.fromRow(row, p, index); } }
            if (n > 18) { k = 18; ValueWriter w = writers[18]; int p = positions[18]; if (row.isNullAt(p)) { w.requireNullable(); w.setNull(index); } else { w.fromRow(row, p, index); } }
            if (n > 19) { k = 19; ValueWriter w = writers[19]; int p = positions[19]; if (row.isNullAt(p)) { w.requireNullable(); w.setNull(index); } else { w.fromRow(row, p, index); } }
            if (n > 20) { k = 20; ValueWriter w = writers[20]; int p = positions[20]; if (row.isNullAt(p)) { w.requireNullable(); w.setNull(index); } else { w.fromRow(row, p, index); } }
            if (n > 21) { k = 21; ValueWriter w = writers[21]; int p = positions[21]; if (row.isNullAt(p)) { w.requireNullable(); w.setNull(index); } else { w.fromRow(row, p, index); } }
            if (n > 22) { k = 22; ValueWriter w = writers[22]; int p = positions[22]; if (row.isNullAt(p)) { w.requireNullable(); w.setNull(index); } else { w.fromRow(row, p, index); } }
            if (n > 23) { k = 23; ValueWriter w = writers[23]; int p = positions[23]; if (row.isNullAt(p)) { w.requireNullable(); w.setNull(index); } else { w.fromRow(row, p, index); } }
            for (k = 24; k < n; k++) {
                ValueWriter w = writers[k];
                int p = positions[k];
                if (row.isNullAt(p)) {
                    w.requireNullable();
                    w.setNull(index);
                } else {
                    w.fromRow(row, p, index);
                }
            }
        } catch (RuntimeException e) {
            throw FieldFailure.at(writers[k].name, e);
        }
    }

    @Override
    void nulls(ValueWriter[] writers, int index) {
        int n = writers.length;
        int k = 0;
        try {
            if (n > 0) { k = 0; ValueWriter w = writers[0]; w.requireNullable(); w.setNull(index); }
            if (n > 1) { k = 1; ValueWriter w = writers[1]; w.requireNullable(); w.setNull(index); }
            if (n > 2) { k = 2; ValueWriter w = writers[2]; w.requireNullable(); w.setNull(index); }
            if (n > 3) { k = 3; ValueWriter w = writers[3]; w.requireNullable(); w.setNull(index); }
            if (n > 4) { k = 4; ValueWriter w = writers[4]; w.requireNullable(); w.setNull(index); }
            if (n > 5) { k = 5; ValueWriter w = writers[5]; w.requireNullable(); w.setNull(index); }
            if (n > 6) { k = 6; ValueWriter w = writers[6]; w.requireNullable(); w.setNull(index); }
            if (n > 7) { k = 7; ValueWriter w = writers[7]; w.requireNullable(); w.setNull(index); }
            if (n > 8) { k = 8; ValueWriter w = writers[8]; w.requireNullable(); w.setNull(index); }
            if (n > 9) { k = 9; ValueWriter w = writers[9]; w.requireNullable(); w.setNull(index); }
            if (n > 10) { k = 10; ValueWriter w = writers[10]; w.requireNullable(); w.setNull(index); }
            if (n > 11) { k = 11; ValueWriter w = writers[11]; w.requireNullable(); w.setNull(index); }
            if (n > 12) { k = 12; ValueWriter w = writers[12]; w.requireNullable(); w.setNull(index); }
            if (n > 13) { k = 13; ValueWriter w = writers[13]; w.requireNullable(); w.setNull(index); }
            if (n > 14) { k = 14; ValueWriter w = writers[14]; w.requireNullable(); w.setNull(index); }
            if (n > 15) { k = 15; ValueWriter w = writers[15]; w.requireNullable(); w.setNull(index); }
            if (n > 16) { k = 16; ValueWriter w = writers[16]; w.requireNullable(); w.setNull(index); }
            if (n > 17) { k = 17; ValueWriter w = writers[17]; w.requireNullable(); w.setNull(index); }
            if (n > 18) { k = 18; ValueWriter w = writers[18]; w.requireNullable(); w.setNull(index); }
            if (n > 19) { k = 19; ValueWriter w = writers[19]; w.requireNullable(); w.setNull(index); }
            if (n > 20) { k = 20; ValueWriter w = writers[20]; w.requireNullable(); w.setNull(index); }
            if (n > 21) { k = 21; ValueWriter w = writers[21]; w.requireNullable(); w.setNull(index); }
            if (n > 22) { k = 22; ValueWriter w = writers[22]; w.requireNullable(); w.setNull(index); }
            if (n > 23) { k = 23; ValueWriter w = writers[23]; w.requireNullable(); w.setNull(index); }
            for (k = 24; k < n; k++) {
                writers[k].requireNullable();
                writers[k].setNull(index);
            }
        } catch (RuntimeException e) {
            throw FieldFailure.at(writers[k].name, e);
        }
    }
}
