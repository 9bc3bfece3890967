package dev.gatun.ffm;

import dev.gatun.ffm.internal.gatun_h;
import java.io.IOException;
import java.lang.foreign.GroupLayout;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** Every struct class in dev.gatun.ffm.internal: a top-level class with a static {@code GroupLayout layout()}. */
final class InternalStructs {
    private static final String PACKAGE = gatun_h.class.getPackageName();

    private InternalStructs() {}

    static List<Class<?>> find() throws IOException, URISyntaxException {
        Path location = Path.of(gatun_h.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        if (Files.isDirectory(location)) {
            return scan(location);
        }
        try (FileSystem jar = FileSystems.newFileSystem(location)) {
            return scan(jar.getPath("/"));
        }
    }

    private static List<Class<?>> scan(Path root) throws IOException {
        List<Class<?>> structs = new ArrayList<>();
        try (Stream<Path> files = Files.list(root.resolve(PACKAGE.replace('.', '/')))) {
            for (Path file : files.sorted(Comparator.comparing(Path::toString)).toList()) {
                String name = file.getFileName().toString();
                if (name.endsWith(".class") && !name.contains("$")) {
                    Class<?> type = load(PACKAGE + "." + name.substring(0, name.length() - ".class".length()));
                    if (isStruct(type)) {
                        structs.add(type);
                    }
                }
            }
        }
        return structs;
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, InternalStructs.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean isStruct(Class<?> type) {
        try {
            Method layout = type.getMethod("layout");
            return layout.getParameterCount() == 0 && layout.getReturnType() == GroupLayout.class;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    static GroupLayout layout(Class<?> struct) {
        try {
            return (GroupLayout) struct.getMethod("layout").invoke(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
