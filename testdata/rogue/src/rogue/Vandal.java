package rogue;

import java.io.File;
import java.io.FileOutputStream;
import java.io.FileWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/** Creates and deletes files in a folder the test watches, and relative ones. */
public class Vandal {
    static final String WATCHED = "@WATCHED@";

    /** Writes a file named after `name` into the watched folder with java.io. */
    public boolean scribble(String name) throws IOException {
        if (name == null || name.isEmpty()) return false;
        try (FileWriter w = new FileWriter(new File(WATCHED, "io-" + name.hashCode()))) {
            w.write(name);
        }
        return true;
    }

    /** Writes a file into the watched folder with java.nio. */
    public int spray(int n) throws IOException {
        Files.write(Paths.get(WATCHED, "nio-" + n), new byte[] {(byte) n});
        return n;
    }

    /** Deletes the victim file in the watched folder; returns whether it did. */
    public boolean delete(boolean nio) throws IOException {
        Path victim = Paths.get(WATCHED, "victim.txt");
        if (nio) {
            Files.delete(victim);
            return true;
        }
        return victim.toFile().delete();
    }

    /** Renames the victim file. */
    public boolean rename() {
        return new File(WATCHED, "victim.txt").renameTo(new File(WATCHED, "renamed.txt"));
    }

    /** Writes a relative path (the current directory of whoever runs it). */
    public int relative(int n) throws IOException {
        try (FileOutputStream out = new FileOutputStream("relative-" + n + ".txt")) {
            out.write(n);
        }
        return n;
    }

    /** Writes a temporary file and returns its length. */
    public long temp(String text) throws IOException {
        File f = File.createTempFile("rogue", ".txt");
        f.deleteOnExit();
        Files.writeString(f.toPath(), text == null ? "" : text);
        return f.length();
    }
}
