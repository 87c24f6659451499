package records;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;

/** Reads what {@link RecordWriter} writes, and nothing else: the first line must carry the body's checksum. */
public final class RecordReader {
    private final BufferedReader in;

    public RecordReader(Reader reader) {
        this.in = new BufferedReader(reader);
    }

    /** Sum of the characters of {@code text}, modulo 65521. */
    static int checksum(String text) {
        int sum = 0;
        for (int i = 0; i < text.length(); i++) {
            sum = (sum + text.charAt(i)) % 65521;
        }
        return sum;
    }

    /** The kind of the records: "map", "list", "mixed" or "empty"; fails on text no writer wrote. */
    public String read() throws IOException {
        String header = in.readLine();
        if (header == null || !header.startsWith("#records ")) {
            throw new IOException("not a record file");
        }
        StringBuilder body = new StringBuilder();
        int entries = 0;
        int elements = 0;
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            body.append(line).append('\n');
            if (line.startsWith("-")) {
                elements++;
            } else if (line.indexOf('=') > 0) {
                entries++;
            } else {
                throw new IOException("bad record: " + line);
            }
        }
        if (Integer.parseInt(header.substring(9).trim()) != checksum(body.toString())) {
            throw new IOException("checksum mismatch");
        }
        if (entries > 0 && elements > 0) {
            return "mixed";
        }
        if (entries > 0) {
            return entries > 1 ? "map" : "entry";
        }
        if (elements > 0) {
            return elements > 1 ? "list" : "element";
        }
        return "empty";
    }
}
