package edge;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileReader;
import java.io.IOException;

/**
 * Reads a file of sections, each a header line and entries up to an empty
 * line, in a fixed order (antlr's interpreter data, an ini file): its last
 * branches need the headers, in order, with an empty line after each
 * section, which line edits of the file's text build (generate.rs).
 */
public final class SectionReader {
    private SectionReader() {
    }

    /** The number of entries, or minus the number of the first section that is missing. */
    public static int entries(File file) throws IOException {
        try (BufferedReader reader = new BufferedReader(new FileReader(file))) {
            String line = reader.readLine();
            if (line == null || !line.equals("names:")) {
                return -1;
            }
            int entries = 0;
            while ((line = reader.readLine()) != null && !line.isEmpty()) {
                entries++;
            }
            line = reader.readLine();
            if (line == null || !line.equals("values:")) {
                return -2;
            }
            while ((line = reader.readLine()) != null && !line.isEmpty()) {
                entries++;
            }
            line = reader.readLine();
            if (line == null || !line.equals("end")) {
                return -3;
            }
            return entries;
        }
    }
}
