package dev.gatun.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatun.ffm.internal.gatun_h;
import java.io.File;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(NoLiveNativeResources.class)
class LibraryLoaderTest {
    private static final String SAMPLE = "extract-test/libsample.so";
    private static final List<String> NATIVE_ACCESS = List.of("--enable-native-access=ALL-UNNAMED");

    @TempDir
    Path dir;

    @Test
    void missingPropertyPathFailsNamingTheAttempt() throws Exception {
        String bogus = "/nonexistent/" + System.mapLibraryName("gatun_native");
        List<String> args = new ArrayList<>(NATIVE_ACCESS);
        args.add("-D" + GatunLibrary.PATH_PROPERTY + "=" + bogus);

        ChildJvm.Result result = ChildJvm.run(dir, args, AbiVersionMain.class);

        assertNotEquals(0, result.exitCode(), result.output());
        assertTrue(result.output().contains("cannot load the Gatun native library; tried:"), result.output());
        assertTrue(result.output().contains(GatunLibrary.PATH_PROPERTY + "=" + bogus + ": no such file"), result.output());
    }

    @Test
    void bundledLibraryIsExtractedToAContentHashedFile() throws Exception {
        Path extractDir = dir.resolve("extract");
        List<String> args = new ArrayList<>(NATIVE_ACCESS);
        args.add("-D" + GatunLibrary.PATH_PROPERTY + "=");
        args.add("-D" + GatunLibrary.EXTRACT_DIR_PROPERTY + "=" + extractDir);

        ChildJvm.Result result = ChildJvm.run(dir, args, AbiVersionMain.class);

        assertEquals(0, result.exitCode(), result.output());
        List<Path> files = list(extractDir);
        assertEquals(1, files.size(), files.toString());
        String hash = ResourceExtractor.sha256(files.getFirst());
        String resource = NativeLibraryLoader.resourceName();
        assertEquals(ResourceExtractor.hashedName(resource, hash), files.getFirst().getFileName().toString());
    }

    @Test
    void concurrentExtractionYieldsOneIdenticalFile() throws Exception {
        int threads = 8;
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Path>> results = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (int i = 0; i < threads; i++) {
                results.add(pool.submit(() -> {
                    start.await();
                    return ResourceExtractor.extract(getClass().getClassLoader(), SAMPLE, dir);
                }));
            }
            start.countDown();
            Set<Path> paths = new HashSet<>();
            for (Future<Path> result : results) {
                paths.add(result.get());
            }
            assertEquals(1, paths.size(), paths.toString());
        }
        List<Path> files = list(dir);
        assertEquals(1, files.size(), "no temp file may be left: " + files);
        Path file = files.getFirst();
        assertEquals(ResourceExtractor.hashedName(SAMPLE, ResourceExtractor.sha256(file)), file.getFileName().toString());
        assertTrue(file.getFileName().toString().matches("libsample-[0-9a-f]{16}\\.so"), file.toString());
        assertEquals(new String(sampleBytes()), Files.readString(file));
    }

    @Test
    void extractedFileIsReusedAndACorruptOneReplaced() throws Exception {
        ClassLoader loader = getClass().getClassLoader();
        Path first = ResourceExtractor.extract(loader, SAMPLE, dir);
        long inode = (long) Files.getAttribute(first, "unix:ino");

        assertEquals(first, ResourceExtractor.extract(loader, SAMPLE, dir));
        assertEquals(inode, (long) Files.getAttribute(first, "unix:ino"), "reused, not rewritten");

        Files.writeString(first, "corrupt");
        assertEquals(first, ResourceExtractor.extract(loader, SAMPLE, dir));
        assertEquals(new String(sampleBytes()), Files.readString(first));
        assertEquals(1, list(dir).size());
    }

    @Test
    void facadeLoadsInTwoClassLoaders() throws Exception {
        URL[] classPath = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(entry -> toUrl(Path.of(entry)))
                .toArray(URL[]::new);
        try (URLClassLoader a = new URLClassLoader(classPath, ClassLoader.getPlatformClassLoader());
             URLClassLoader b = new URLClassLoader(classPath, ClassLoader.getPlatformClassLoader())) {
            Class<?> libraryA = a.loadClass(GatunLibrary.class.getName());
            Class<?> libraryB = b.loadClass(GatunLibrary.class.getName());
            assertNotSame(libraryA, libraryB);
            assertNotSame(GatunLibrary.class, libraryA);

            int expected = gatun_h.GATUN_ABI_VERSION();
            assertEquals(expected, (int) libraryA.getMethod("abiVersion").invoke(null));
            assertEquals(expected, (int) libraryB.getMethod("abiVersion").invoke(null));
            assertNotNull(libraryA.getMethod("path").invoke(null));
        }
    }

    private static URL toUrl(Path entry) {
        try {
            return entry.toUri().toURL();
        } catch (java.net.MalformedURLException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static byte[] sampleBytes() throws Exception {
        try (InputStream in = LibraryLoaderTest.class.getClassLoader().getResourceAsStream(SAMPLE)) {
            assertNotNull(in, SAMPLE);
            return in.readAllBytes();
        }
    }

    private static List<Path> list(Path directory) throws Exception {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(Files::isRegularFile).sorted().toList();
        }
    }
}
