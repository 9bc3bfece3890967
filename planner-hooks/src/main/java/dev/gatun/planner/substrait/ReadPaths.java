package dev.gatun.planner.substrait;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;

/**
 * The input field paths a set of expressions reads: {@code [i]} for a whole input field,
 * {@code [i, j, ...]} for nested ROW fields reached by field access. A path covered by a shorter
 * one is dropped, so the entry transpose writes each read leaf once and nothing else.
 */
public final class ReadPaths {
    private ReadPaths() {}

    public static List<int[]> of(List<RexNode> expressions) {
        TreeSet<int[]> paths = new TreeSet<>(Arrays::compare);
        RexShuttle collector = new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                paths.add(new int[] {ref.getIndex()});
                return ref;
            }

            @Override
            public RexNode visitFieldAccess(RexFieldAccess access) {
                int[] path = path(access);
                if (path == null) {
                    return super.visitFieldAccess(access);
                }
                paths.add(path);
                return access;
            }
        };
        for (RexNode e : expressions) {
            e.accept(collector);
        }
        List<int[]> result = new ArrayList<>();
        for (int[] p : paths) {
            if (result.isEmpty() || !isPrefix(result.get(result.size() - 1), p)) {
                result.add(p);
            }
        }
        return result;
    }

    /** The path of a chain of field accesses that ends at an input reference, else null. */
    public static int[] path(RexNode node) {
        if (node instanceof RexInputRef ref) {
            return new int[] {ref.getIndex()};
        }
        if (node instanceof RexFieldAccess access) {
            int[] parent = path(access.getReferenceExpr());
            if (parent == null) {
                return null;
            }
            int[] p = Arrays.copyOf(parent, parent.length + 1);
            p[parent.length] = access.getField().getIndex();
            return p;
        }
        return null;
    }

    /** Index of {@code path} among {@code paths}, or of the shorter path that covers it; -1 if none. */
    public static int indexOfCovering(List<int[]> paths, int[] path) {
        for (int i = 0; i < paths.size(); i++) {
            if (isPrefix(paths.get(i), path)) {
                return i;
            }
        }
        return -1;
    }

    static boolean isPrefix(int[] prefix, int[] path) {
        return prefix.length <= path.length && Arrays.equals(prefix, 0, prefix.length, path, 0, prefix.length);
    }
}
