package old;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;

/**
 * Compiled with `--release 8` by generate.rs: its tests are compiled for
 * Java 8 too, so they must not make an `OutputStream` with Java 11's
 * `OutputStream.nullOutputStream()` (they did, javac rejected them, and
 * every goal they covered was lost).
 */
public class Sink {
    public static String drain(OutputStream out, int n) throws IOException {
        if (out == null) {
            return "none";
        }
        if (n > 3) {
            out.write(n);
            return "big";
        }
        return "small";
    }

    public static int echo(Writer writer, String text) throws IOException {
        if (writer == null || text == null) {
            return -1;
        }
        writer.write(text);
        return text.length();
    }
}
