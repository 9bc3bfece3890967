package dev.gatun.planner.rewrite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.flink.table.planner.functions.sql.FlinkSqlOperatorTable;
import org.junit.jupiter.api.Test;

/** Expressions simplified under the filter that keeps the rows they are evaluated on. */
class UnderFilterTest {
    private final RelDataTypeFactory types = new JavaTypeFactoryImpl();
    private final RexBuilder rex = new RexBuilder(types);
    private final RelDataType intType = types.createTypeWithNullability(types.createSqlType(SqlTypeName.INTEGER), true);
    private final RelDataType bigint = types.createTypeWithNullability(types.createSqlType(SqlTypeName.BIGINT), true);
    private final RexNode kind = rex.makeInputRef(intType, 0);
    private final RexNode a = rex.makeInputRef(bigint, 1);
    private final RexNode b = rex.makeInputRef(bigint, 2);
    private final RexNode c = rex.makeInputRef(bigint, 3);

    private RexNode kindIs(int value) {
        return rex.makeCall(SqlStdOperatorTable.EQUALS, kind, rex.makeExactLiteral(BigDecimal.valueOf(value)));
    }

    private RexNode nexmarkCase() {
        return rex.makeCall(SqlStdOperatorTable.CASE, kindIs(0), a, kindIs(1), b, c);
    }

    @Test
    void theCaseOverTheFilteredColumnKeepsTheBranchTheKeptRowsTake() {
        List<RexNode> out = UnderFilter.simplify(rex, List.of(nexmarkCase(), a), kindIs(2));
        assertEquals(List.of(c, a), out);
        assertEquals(nexmarkCase().getType(), out.get(0).getType());

        RexNode underKind1 = UnderFilter.simplify(rex, List.of(nexmarkCase()), kindIs(1)).get(0);
        assertEquals(rex.makeCall(nexmarkCase().getType(), SqlStdOperatorTable.CASE, List.of(kindIs(1), b, c)),
                underKind1);
    }

    @Test
    void withoutAFilterTheExpressionsStay() {
        List<RexNode> given = List.of(nexmarkCase());
        assertSame(given, UnderFilter.simplify(rex, given, null));
    }

    @Test
    void aConjunctThatCanChangeFromCallToCallDecidesNothing() {
        for (SqlOperator rand : List.of(FlinkSqlOperatorTable.RAND, SqlStdOperatorTable.RAND)) {
            RexNode lucky = rex.makeCall(SqlStdOperatorTable.GREATER_THAN, rex.makeCall(rand),
                    rex.makeApproxLiteral(BigDecimal.valueOf(0.5)));
            RexNode unlucky = rex.makeCall(SqlStdOperatorTable.LESS_THAN_OR_EQUAL, rex.makeCall(rand),
                    rex.makeApproxLiteral(BigDecimal.valueOf(0.5)));
            RexNode byChance = rex.makeCall(SqlStdOperatorTable.CASE, unlucky, a, b);
            assertEquals(byChance, UnderFilter.simplify(rex, List.of(byChance), lucky).get(0), rand.getName());
            // nor is a CASE that calls it pruned: skipping a seeded RAND would shift its sequence
            RexNode chanceFirst = rex.makeCall(SqlStdOperatorTable.CASE,
                    rex.makeCall(SqlStdOperatorTable.AND, lucky, kindIs(0)), a, b);
            assertEquals(chanceFirst, UnderFilter.simplify(rex, List.of(chanceFirst), kindIs(2)).get(0));
            // the deterministic conjunct beside it still prunes
            RexNode both = rex.makeCall(SqlStdOperatorTable.AND, kindIs(2), lucky);
            assertEquals(c, UnderFilter.simplify(rex, List.of(nexmarkCase()), both).get(0), rand.getName());
        }
    }

    @Test
    void aBranchTheKeptRowsMayTakeStaysAndAnAlwaysTakenOneEndsTheCase() {
        RexNode bigA = rex.makeCall(SqlStdOperatorTable.GREATER_THAN, a, rex.makeExactLiteral(BigDecimal.TEN));
        // kind <> 0: the first branch goes, the second may be taken or not
        RexNode notZero = rex.makeCall(SqlStdOperatorTable.NOT_EQUALS, kind, rex.makeExactLiteral(BigDecimal.ZERO));
        RexNode expected = rex.makeCall(nexmarkCase().getType(), SqlStdOperatorTable.CASE, List.of(kindIs(1), b, c));
        assertEquals(expected, UnderFilter.simplify(rex, List.of(nexmarkCase()), rex.makeCall(
                SqlStdOperatorTable.AND, notZero, bigA)).get(0));
        // a > 10 decides nothing about kind: the CASE stays whole
        assertEquals(nexmarkCase(), UnderFilter.simplify(rex, List.of(nexmarkCase()), bigA).get(0));
        // with a NOT NULL kind, kind = 0 makes the first branch the one every kept row takes
        RexNode kindNotNull = rex.makeInputRef(types.createSqlType(SqlTypeName.INTEGER), 0);
        RexNode isZero = rex.makeCall(SqlStdOperatorTable.EQUALS, kindNotNull, rex.makeExactLiteral(BigDecimal.ZERO));
        RexNode isOne = rex.makeCall(SqlStdOperatorTable.EQUALS, kindNotNull, rex.makeExactLiteral(BigDecimal.ONE));
        RexNode overNotNull = rex.makeCall(SqlStdOperatorTable.CASE, isOne, b, isZero, a, c);
        assertEquals(a, UnderFilter.simplify(rex, List.of(overNotNull), isZero).get(0));
    }

    @Test
    void aCaseThatWouldShrinkToAValueOfAnotherTypeStaysWhole() {
        RelDataType notNull = types.createSqlType(SqlTypeName.BIGINT);
        RexNode d = rex.makeInputRef(notNull, 4);
        RexNode nullable = rex.makeCall(SqlStdOperatorTable.CASE, kindIs(0), a, d);
        assertEquals(nullable, UnderFilter.simplify(rex, List.of(nullable), kindIs(2)).get(0));
    }

    @Test
    void casesInsideOtherExpressionsArePrunedToo() {
        RexNode plusOne = rex.makeCall(SqlStdOperatorTable.PLUS, nexmarkCase(), rex.makeExactLiteral(BigDecimal.ONE));
        RexNode expected = rex.makeCall(SqlStdOperatorTable.PLUS, c, rex.makeExactLiteral(BigDecimal.ONE));
        assertEquals(expected, UnderFilter.simplify(rex, List.of(plusOne), kindIs(2)).get(0));
    }
}
