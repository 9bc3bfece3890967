package dev.gatun.planner.rewrite;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSimplify;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

/**
 * Expressions an island evaluates only on the rows its filter keeps, without the CASE branches
 * those rows never take. The Nexmark shape is the reason: a view {@code WHERE event_type = 2} over
 * a table whose rowtime is {@code CASE WHEN event_type = 0 THEN person.dateTime WHEN event_type = 1
 * THEN auction.dateTime ELSE bid.dateTime END}; on the kept rows that is {@code bid.dateTime}, so
 * the island does not evaluate the CASE a second time (the watermark, over every row, still does).
 *
 * <p>A branch goes when its condition is false wherever the filter's deterministic conjuncts are
 * true (Calcite's simplifier decides that), and a branch whose condition is then always true ends
 * the CASE. A CASE that calls anything non-deterministic stays whole. Nothing else changes: no
 * operator is added, the CASE keeps its type, and a CASE that would shrink to a value of another
 * type (nullability included) stays whole.
 */
final class UnderFilter {
    /** Constant folding is left to the native side: no Calcite code generation while planning. */
    private static final RexExecutor NO_REDUCTION = (rex, constants, reduced) -> reduced.addAll(constants);

    private UnderFilter() {}

    /** {@code expressions} for rows on which {@code condition} is true; as given without a condition. */
    static List<RexNode> simplify(RexBuilder rex, List<RexNode> expressions, RexNode condition) {
        if (condition == null) {
            return expressions;
        }
        List<RexNode> known = RelOptUtil.conjunctions(condition).stream().filter(UnderFilter::deterministic)
                .toList();
        if (known.isEmpty()) {
            return expressions;
        }
        RexSimplify simplify = new RexSimplify(rex, RelOptPredicateList.of(rex, known), NO_REDUCTION);
        RexShuttle pruning = new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                RexNode visited = super.visitCall(call);
                return visited.getKind() == SqlKind.CASE && deterministic(visited)
                        ? pruned(rex, simplify, (RexCall) visited) : visited;
            }
        };
        return expressions.stream().map(e -> e.accept(pruning)).toList();
    }

    /**
     * Whether {@code expression} gives the same value wherever it is evaluated again on the same row
     * (and skipping it changes nothing else: a seeded RAND's sequence would).
     */
    private static boolean deterministic(RexNode expression) {
        boolean[] same = {true};
        expression.accept(new RexVisitorImpl<Void>(true) {
            @Override
            public Void visitCall(RexCall call) {
                // RAND is not deterministic in Flink's operator table, "dynamic" in Calcite's
                same[0] &= call.getOperator().isDeterministic() && !call.getOperator().isDynamicFunction();
                return super.visitCall(call);
            }
        });
        return same[0];
    }

    private static RexNode pruned(RexBuilder rex, RexSimplify simplify, RexCall call) {
        List<RexNode> operands = call.getOperands();
        List<RexNode> branches = new ArrayList<>();
        RexNode otherwise = operands.get(operands.size() - 1);
        boolean changed = false;
        for (int i = 0; i + 1 < operands.size(); i += 2) {
            RexNode when = simplify.simplifyUnknownAsFalse(operands.get(i));
            if (when.isAlwaysFalse()) {
                changed = true;
                continue;
            }
            if (when.isAlwaysTrue()) {
                changed = true; // every kept row that gets here takes it: the rest goes
                otherwise = operands.get(i + 1);
                break;
            }
            branches.add(operands.get(i));
            branches.add(operands.get(i + 1));
        }
        if (!changed) {
            return call;
        }
        if (branches.isEmpty()) {
            return otherwise.getType().equals(call.getType()) ? otherwise : call;
        }
        branches.add(otherwise);
        return rex.makeCall(call.getType(), SqlStdOperatorTable.CASE, branches);
    }
}
