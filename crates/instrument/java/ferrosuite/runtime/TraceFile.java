package ferrosuite.runtime;

import java.io.BufferedWriter;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;

/**
 * An append-only event file of a recording run (the {@link Recorder}'s
 * {@code events.txt}, the {@link ValueTracer}'s {@code values.txt}): one
 * line per event, a {@code J} line when a JVM opens it and a
 * {@code T<TAB>test} line whenever the running test changes (the system
 * property {@code ferro.test}, which the test runner sets).
 *
 * <p>Writing is synchronized and buffered; the buffer is flushed when the
 * test changes, every 200 ms (by a daemon thread) and at JVM exit, so a run
 * that is cut, even by SIGKILL, keeps what it recorded until 200 ms before.
 */
final class TraceFile {
    private final Object lock = new Object();
    private final Writer out;
    private String test = "";

    private TraceFile(Writer out) {
        this.out = out;
    }

    /** Opens {@code dir/name} for appending; null (with a message on stderr) when it cannot. */
    static TraceFile open(String dir, String name) {
        try {
            Writer w = new BufferedWriter(
                    new OutputStreamWriter(new FileOutputStream(new File(dir, name), true), "UTF-8"), 1 << 16);
            w.write("J\n");
            final TraceFile file = new TraceFile(w);
            Runtime.getRuntime().addShutdownHook(new Thread() {
                public void run() {
                    file.flush();
                }
            });
            Thread flusher = new Thread("ferrosuite-trace-flush") {
                public void run() {
                    while (true) {
                        try {
                            Thread.sleep(200);
                        } catch (Throwable t) {
                            return;
                        }
                        file.flush();
                    }
                }
            };
            flusher.setDaemon(true);
            flusher.start();
            return file;
        } catch (IOException e) {
            System.err.println("ferrosuite: cannot record into " + dir + ": " + e);
            return null;
        }
    }

    private void flush() {
        synchronized (lock) {
            try {
                out.flush();
            } catch (IOException e) {
                // nothing more to do
            }
        }
    }

    /**
     * Writes {@code line} (without its newline), after a {@code T} line when
     * {@code now} (the running test; null: the one of the previous line)
     * differs from the last test written.
     */
    void write(CharSequence line, String now) throws IOException {
        synchronized (lock) {
            if (now != null && !now.equals(test)) {
                test = now;
                out.flush();
                out.write("T\t" + escape(now) + "\n");
            }
            out.append(line);
            out.write('\n');
        }
    }

    /** {@code s} with backslash, TAB, CR and LF escaped as {@code \\ \t \r \n}. */
    static String escape(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\': out.append("\\\\"); break;
                case '\t': out.append("\\t"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                default: out.append(c);
            }
        }
        return out.toString();
    }
}
