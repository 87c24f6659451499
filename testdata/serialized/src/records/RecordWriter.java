package records;

import java.util.List;
import java.util.Map;

/** Writes a map or a list as a record file: a checksum line, then one line per entry. */
public final class RecordWriter {
    private RecordWriter() {}

    /** The text of {@code value}: entries of a map as {@code key=value}, elements of a list as {@code -value}. */
    public static String write(Object value) {
        StringBuilder body = new StringBuilder();
        if (value instanceof Map) {
            for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
                body.append(e.getKey()).append('=').append(e.getValue()).append('\n');
            }
        } else if (value instanceof List) {
            for (Object o : (List<?>) value) {
                body.append('-').append(o).append('\n');
            }
        } else {
            body.append('-').append(value).append('\n');
        }
        return "#records " + RecordReader.checksum(body.toString()) + "\n" + body;
    }
}
