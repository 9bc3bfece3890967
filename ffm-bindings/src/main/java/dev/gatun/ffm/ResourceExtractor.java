package dev.gatun.ffm;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Extracts a class-path resource to {@code <dir>/<base>-<sha256 prefix><ext>}. The name is derived
 * from the content, so a file already there with the right content is reused; otherwise the
 * content goes to a temp file in the same directory and is renamed atomically, which is safe
 * when several threads or JVMs extract at once (each rename installs a complete file).
 */
final class ResourceExtractor {
    private static final int HASH_CHARS = 16;

    private ResourceExtractor() {}

    static Path extract(ClassLoader loader, String resource, Path dir) throws IOException {
        URL url = loader == null ? ClassLoader.getSystemResource(resource) : loader.getResource(resource);
        if (url == null) {
            throw new NativeLibraryLoadException("not found on the class path of " + loader);
        }
        String hash = sha256(url);
        Path target = dir.resolve(hashedName(resource, hash));
        if (Files.isRegularFile(target) && hash.equals(sha256(target))) {
            return target;
        }
        Files.createDirectories(dir);
        Path temp = Files.createTempFile(dir, target.getFileName() + "-", ".tmp");
        try {
            String written;
            try (InputStream in = url.openStream()) {
                written = copyHashing(in, temp);
            }
            if (!written.equals(hash)) {
                throw new IOException(resource + " changed while it was extracted");
            }
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return target;
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    static String hashedName(String resource, String hash) {
        String file = resource.substring(resource.lastIndexOf('/') + 1);
        int dot = file.indexOf('.');
        String base = dot < 0 ? file : file.substring(0, dot);
        String ext = dot < 0 ? "" : file.substring(dot);
        return base + "-" + hash.substring(0, HASH_CHARS) + ext;
    }

    private static String sha256(URL url) throws IOException {
        try (InputStream in = url.openStream()) {
            return copyHashing(in, null);
        }
    }

    static String sha256(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return copyHashing(in, null);
        }
    }

    /** Reads {@code in} to the end (into {@code out} when given) and returns its SHA-256 in hex. */
    private static String copyHashing(InputStream in, Path out) throws IOException {
        MessageDigest digest = newSha256();
        try (DigestInputStream digesting = new DigestInputStream(in, digest)) {
            if (out == null) {
                digesting.transferTo(OutputStream.nullOutputStream());
            } else {
                Files.copy(digesting, out, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
