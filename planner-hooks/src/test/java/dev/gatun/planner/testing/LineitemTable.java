package dev.gatun.planner.testing;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;

/**
 * A bounded table shaped like TPC-H's {@code lineitem} (the columns its query 1 reads), with
 * deterministic values in TPC-H's ranges: flags R/A/N, statuses O/F, quantities 1..50, prices,
 * discounts 0.00..0.10, taxes 0.00..0.08, ship dates from 1992 to the end of 1998; every 97th row
 * has NULL measures.
 */
public final class LineitemTable {
    public static final String COLUMNS = "l_returnflag STRING, l_linestatus STRING, l_quantity DECIMAL(15, 2),"
            + " l_extendedprice DECIMAL(15, 2), l_discount DECIMAL(15, 2), l_tax DECIMAL(15, 2), l_shipdate DATE";

    /** TPC-H query 1 over {@link #COLUMNS}, as written in the specification (DECIMAL arithmetic). */
    public static final String Q1 = "SELECT l_returnflag, l_linestatus, SUM(l_quantity) AS sum_qty,"
            + " SUM(l_extendedprice) AS sum_base_price,"
            + " SUM(l_extendedprice * (1 - l_discount)) AS sum_disc_price,"
            + " SUM(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge,"
            + " AVG(l_quantity) AS avg_qty, AVG(l_extendedprice) AS avg_price, AVG(l_discount) AS avg_disc,"
            + " COUNT(*) AS count_order"
            + " FROM %s WHERE l_shipdate <= DATE '1998-12-01' - INTERVAL '90' DAY"
            + " GROUP BY l_returnflag, l_linestatus";

    private static final String[] FLAGS = {"R", "A", "N"};
    private static final int FIRST_DAY = (int) LocalDate.of(1992, 1, 1).toEpochDay();
    private static final int DAYS = (int) (LocalDate.of(1998, 12, 31).toEpochDay() - FIRST_DAY);

    private LineitemTable() {}

    public static void create(Queries q, String name, int rows) {
        q.sql("CREATE TEMPORARY TABLE " + name + " (" + COLUMNS + ") " + TestRowsFactory.register(rows(rows)));
    }

    static List<RowData> rows(int n) {
        List<RowData> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            boolean nulls = i % 97 == 0;
            int day = FIRST_DAY + (int) ((i * 7919L) % DAYS);
            String status = day > LocalDate.of(1995, 6, 17).toEpochDay() ? "O" : "F";
            int quantity = 1 + (i * 31) % 50;
            long priceCents = quantity * (90_000L + (i * 7L) % 10_000L);
            rows.add(GenericRowData.of(
                    StringData.fromString(FLAGS[(i * 13) % 3]),
                    StringData.fromString(status),
                    nulls ? null : decimal(quantity * 100L),
                    nulls ? null : decimal(priceCents),
                    nulls ? null : decimal((i * 3L) % 11),
                    nulls ? null : decimal((i * 5L) % 9),
                    day));
        }
        return rows;
    }

    private static DecimalData decimal(long cents) {
        return DecimalData.fromBigDecimal(BigDecimal.valueOf(cents, 2), 15, 2);
    }
}
