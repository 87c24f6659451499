package edge;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileReader;
import java.io.IOException;

/**
 * Reads a file: its branches need a file with several lines, which the
 * tests write into their temporary file (generate.rs).
 */
public final class LineCounter {
    private LineCounter() {
    }

    public static String classify(File file) throws IOException {
        int lines = 0;
        try (BufferedReader reader = new BufferedReader(new FileReader(file))) {
            while (reader.readLine() != null) {
                lines++;
            }
        }
        if (lines == 0) {
            return "empty";
        }
        if (lines > 2) {
            return "long";
        }
        return "short";
    }
}
