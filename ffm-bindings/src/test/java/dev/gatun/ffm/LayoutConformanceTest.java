package dev.gatun.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.ffm.internal.gatun_h;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.PaddingLayout;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java layouts and constants must match the C header as the system C compiler sees it: a
 * probe generated from the Java layouts prints sizeof/alignof/offsetof for every struct and
 * member and every constant's value, and each number is compared.
 */
class LayoutConformanceTest {
    private static final Pattern CONSTANT_NAME = Pattern.compile("(GATUN|ARROW_FLAG)_[A-Z0-9_]+");
    private static final Set<String> REQUIRED_STRUCTS =
            Set.of("ArrowSchema", "ArrowArray", "ArrowArrayStream", "GatunNativeStats", "GatunWatermarkProgress",
                    "GatunStateStats");

    /** Java's value for each probe key, e.g. {@code offsetof ArrowArray.release -> 64}. */
    private final Map<String, Long> expected = new LinkedHashMap<>();
    private final StringBuilder probe = new StringBuilder();
    private final List<String> mismatches = new ArrayList<>();
    private int fields;

    @Test
    void javaLayoutsAndConstantsMatchTheCHeader(@TempDir Path dir) throws Exception {
        List<Class<?>> structs = InternalStructs.find();
        Set<String> names = new TreeSet<>();
        structs.forEach(s -> names.add(s.getSimpleName()));
        assertTrue(names.containsAll(REQUIRED_STRUCTS), "struct classes found: " + names);

        for (Class<?> struct : structs) {
            GroupLayout layout = InternalStructs.layout(struct);
            String tag = "struct " + layout.name().orElse(struct.getSimpleName());
            String name = struct.getSimpleName();
            expect("sizeof " + name, layout.byteSize(), "sizeof(" + tag + ")");
            expect("alignof " + name, layout.byteAlignment(), "_Alignof(" + tag + ")");
            members(struct, layout, tag, name, "", List.of());
        }
        int constants = 0;
        for (Method method : gatun_h.class.getMethods()) {
            if (Modifier.isStatic(method.getModifiers()) && method.getParameterCount() == 0
                    && CONSTANT_NAME.matcher(method.getName()).matches()) {
                long value = ((Number) method.invoke(null)).longValue();
                expect("const " + method.getName(), value, "(long long)(" + method.getName() + ")");
                constants++;
            }
        }

        Map<String, Long> actual = runProbe(dir);
        expected.forEach((key, value) -> {
            Long c = actual.get(key);
            if (!value.equals(c)) {
                mismatches.add(key + ": Java " + value + ", C " + c);
            }
        });
        assertTrue(mismatches.isEmpty(), "Java bindings differ from the C header:\n  "
                + String.join("\n  ", mismatches));
        System.out.printf("conformance: %d structs, %d fields, %d constants compared (%d numbers)%n",
                structs.size(), fields, constants, expected.size());
    }

    private void members(Class<?> struct, GroupLayout group, String tag, String name,
                         String prefix, List<PathElement> parent) throws ReflectiveOperationException {
        for (MemoryLayout member : group.memberLayouts()) {
            if (member instanceof PaddingLayout) {
                continue;
            }
            String field = member.name().orElseThrow(() -> new AssertionError(name + " has an unnamed member"));
            String cPath = prefix + field;
            List<PathElement> path = new ArrayList<>(parent);
            path.add(PathElement.groupElement(field));
            PathElement[] elements = path.toArray(PathElement[]::new);
            long offset = InternalStructs.layout(struct).byteOffset(elements);
            String key = name + "." + cPath;
            expect("offsetof " + key, offset, "offsetof(" + tag + ", " + cPath + ")");
            expect("sizeof " + key, member.byteSize(), "sizeof(((" + tag + "*)0)->" + cPath + ")");
            expect("alignof " + key, member.byteAlignment(), "__alignof__(((" + tag + "*)0)->" + cPath + ")");
            if (parent.isEmpty()) {
                long generated = (long) struct.getMethod(field + "$offset").invoke(null);
                if (generated != offset) {
                    mismatches.add(key + "$offset(): " + generated + ", layout " + offset);
                }
            }
            fields++;
            if (member instanceof GroupLayout nested) {
                members(struct, nested, tag, name, cPath + ".", path);
            }
        }
    }

    private void expect(String key, long javaValue, String cExpression) {
        expected.put(key, javaValue);
        probe.append("    printf(\"%s %lld\\n\", \"").append(key).append("\", (long long)(")
                .append(cExpression).append("));\n");
    }

    private Map<String, Long> runProbe(Path dir) throws Exception {
        Path source = dir.resolve("probe.c");
        Path binary = dir.resolve("probe");
        Files.writeString(source, """
                #include <stddef.h>
                #include <stdio.h>
                #include "gatun.h"

                int main(void) {
                %s    return 0;
                }
                """.formatted(probe));
        CCompiler.compile(List.of("-std=gnu11", "-Wall", "-Werror", "-I", CCompiler.includeDir().toString(),
                "-o", binary.toString(), source.toString()));
        Map<String, Long> values = new LinkedHashMap<>();
        for (String line : CCompiler.run(List.of(binary.toString())).split("\n")) {
            int space = line.lastIndexOf(' ');
            if (space > 0) {
                values.put(line.substring(0, space), Long.parseLong(line.substring(space + 1).trim()));
            }
        }
        return values;
    }

    @Test
    void gatunNativeRepeatsTheHeadersConstants() {
        assertEquals(gatun_h.GATUN_OPERATOR_CALC(), GatunNative.OPERATOR_CALC);
        assertEquals(gatun_h.GATUN_OPERATOR_LOCAL_AGGREGATE(), GatunNative.OPERATOR_LOCAL_AGGREGATE);
        assertEquals(gatun_h.GATUN_OPERATOR_WINDOW_AGGREGATE(), GatunNative.OPERATOR_WINDOW_AGGREGATE);
        assertEquals(gatun_h.GATUN_OUTPUT_ARROW(), GatunNative.OUTPUT_ARROW);
        assertEquals(gatun_h.GATUN_OUTPUT_FLINK_ROWS(), GatunNative.OUTPUT_FLINK_ROWS);
    }

    @Test
    void everyConstantOfTheHeadersIsBound() throws Exception {
        Pattern define = Pattern.compile("(?m)^\\s*#define[ \\t]+((?:GATUN|ARROW_FLAG)_[A-Z0-9_]+)[ \\t]+\\S");
        List<String> missing = new ArrayList<>();
        int count = 0;
        for (String header : List.of("gatun.h", "arrow_c_data.h")) {
            Matcher m = define.matcher(Files.readString(CCompiler.includeDir().resolve(header)));
            while (m.find()) {
                count++;
                if (!hasStaticMethod(m.group(1))) {
                    missing.add(m.group(1));
                }
            }
        }
        assertTrue(count >= 10, "expected the GATUN_* and ARROW_FLAG_* defines, found " + count);
        assertTrue(missing.isEmpty(), "constants missing from gatun_h (run jextract-config/regenerate): " + missing);
    }

    @Test
    void everyFunctionOfTheHeaderIsBoundWithItsArity() throws Exception {
        String code = Files.readString(CCompiler.includeDir().resolve("gatun.h")).replaceAll("(?s)/\\*.*?\\*/", "");
        Matcher m = Pattern.compile("\\b(gatun_[a-z0-9_]+)\\s*\\(([^)]*)\\)").matcher(code);
        List<String> missing = new ArrayList<>();
        int count = 0;
        while (m.find()) {
            count++;
            String name = m.group(1);
            String params = m.group(2).strip();
            int arity = params.equals("void") || params.isEmpty() ? 0 : params.split(",").length;
            if (!hasStaticMethod(name + "$descriptor")) {
                missing.add(name);
            } else {
                FunctionDescriptor d = (FunctionDescriptor) gatun_h.class.getMethod(name + "$descriptor").invoke(null);
                if (d.argumentLayouts().size() != arity) {
                    missing.add(name + " (header: " + arity + " parameters, gatun_h: " + d.argumentLayouts().size() + ")");
                }
            }
        }
        assertTrue(count >= 10, "expected the gatun_* declarations, found " + count);
        assertTrue(missing.isEmpty(), "functions missing from gatun_h or of another arity"
                + " (run jextract-config/regenerate): " + missing);
    }

    private static boolean hasStaticMethod(String name) {
        try {
            return Modifier.isStatic(gatun_h.class.getMethod(name).getModifiers());
        } catch (NoSuchMethodException e) {
            return false;
        }
    }
}
