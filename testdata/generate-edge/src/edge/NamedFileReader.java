package edge;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;

/**
 * Takes a file by its name, as a string (antlr's
 * `InterpreterDataReader.parseFile(String fileName)`): its branches need a
 * string that names a readable file with lines in it (generate.rs).
 */
public final class NamedFileReader {
    private NamedFileReader() {
    }

    public static String firstLine(String fileName) throws IOException {
        List<String> lines = Files.readAllLines(Paths.get(fileName));
        if (lines.isEmpty()) {
            return "";
        }
        return lines.get(0);
    }
}
