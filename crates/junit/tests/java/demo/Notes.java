package demo;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes and measures files: its tests make them in a temporary folder. */
public class Notes {
    public static int save(File file, String text) throws IOException {
        Files.write(file.toPath(), text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return text.length();
    }

    public static long size(Path path) throws IOException {
        return Files.size(path);
    }
}
