package dev.gatun.bench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.gatun.bench.rows.RowBatch;
import dev.gatun.bench.rows.RowFormat;
import dev.gatun.bench.rows.RowShape;
import dev.gatun.bench.rows.Shapes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

class RowHasherTest {
    private static long checksum(RowShape shape, RowData[] rows) {
        RowHasher hasher = RowHasher.of(shape.rowType());
        long sum = 0;
        for (RowData row : rows) {
            sum += hasher.hash(row);
        }
        return sum;
    }

    @Test
    void sameRowsGiveTheSameChecksumInAnyOrderAndFormat() {
        for (RowShape shape : Shapes.all()) {
            RowData[] generic = RowBatch.of(shape, RowFormat.GENERIC, 200, 9).rows();
            RowData[] binary = RowBatch.of(shape, RowFormat.BINARY, 200, 9).rows();
            RowData[] reversed = new RowData[generic.length];
            for (int i = 0; i < generic.length; i++) {
                reversed[i] = generic[generic.length - 1 - i];
            }
            long expected = checksum(shape, generic);
            assertEquals(expected, checksum(shape, RowBatch.of(shape, RowFormat.GENERIC, 200, 9).rows()), shape.name());
            assertEquals(expected, checksum(shape, binary), shape.name() + " binary");
            assertEquals(expected, checksum(shape, reversed), shape.name() + " reversed");
        }
    }

    @Test
    void aChangedFieldChangesTheChecksum() {
        RowShape bid = Shapes.BID;
        RowData[] rows = RowBatch.of(bid, RowFormat.GENERIC, 100, 1).rows();
        long before = checksum(bid, rows);

        GenericRowData row = (GenericRowData) rows[37];
        String url = row.getString(4).toString();
        row.setField(4, StringData.fromString(url.substring(0, url.length() - 1) + "#")); // last byte only
        assertNotEquals(before, checksum(bid, rows), "one byte of one string");
        row.setField(4, StringData.fromString(url));
        assertEquals(before, checksum(bid, rows));

        row.setField(2, row.getLong(2) + 1);
        assertNotEquals(before, checksum(bid, rows), "a price");
        row.setField(2, row.getLong(2) - 1);

        row.setField(6, null);
        assertNotEquals(before, checksum(bid, rows), "a NULL");
        row.setField(6, bid.row(1, 37).getString(6));
        assertEquals(before, checksum(bid, rows));

        row.setRowKind(RowKind.DELETE);
        assertNotEquals(before, checksum(bid, rows), "the row kind");
    }

    @Test
    void swappedValuesChangeTheChecksum() {
        RowShape bid = Shapes.BID;
        GenericRowData a = bid.row(1, 1);
        GenericRowData swapped = GenericRowData.of(a.getField(1), a.getField(0), a.getField(2), a.getField(3),
                a.getField(4), a.getField(5), a.getField(6));
        RowHasher hasher = RowHasher.of(bid.rowType());
        assertNotEquals(hasher.hash(a), hasher.hash(swapped));
    }
}
