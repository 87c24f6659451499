package edge;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads and writes files it is given: tests need real files to write. */
public class Notebook {
    /** Writes `text` into `file`; returns its length, or -1 for no text. */
    public static int save(File file, String text) throws IOException {
        if (text == null) return -1;
        Files.writeString(file.toPath(), text);
        return text.length();
    }

    /** The content of `path`, or "<empty>". */
    public static String load(Path path) throws IOException {
        String s = Files.readString(path);
        return s.isEmpty() ? "<empty>" : s;
    }
}
