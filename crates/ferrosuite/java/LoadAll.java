import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Loads, links and initialises classes by binary name, one name per line
 * on standard input, and prints one line per class that fails:
 * {@code FAIL <name> <throwable class>: <message>}, then {@code TOTAL <n> FAILED <k>}.
 *
 * Used by ferrosuite's instrumentation check: run it under
 * {@code java -Xverify:all -cp INSTRUMENTED:ORIGINAL_CP LoadAll} and again on
 * the original class path, and compare. Static initialisers run; their
 * output goes to the void. With the static reset's runtime on the class path
 * ({@code bench verify --static-reset}) every reset then runs once.
 */
public final class LoadAll {
    public static void main(String[] args) throws Exception {
        java.io.PrintStream out = System.out;
        java.io.PrintStream devNull = new java.io.PrintStream(new java.io.OutputStream() {
            @Override public void write(int b) {}
            @Override public void write(byte[] b, int off, int len) {}
        });
        System.setOut(devNull);
        System.setErr(devNull);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        ClassLoader loader = LoadAll.class.getClassLoader();
        int total = 0;
        int failed = 0;
        for (String name; (name = in.readLine()) != null; ) {
            name = name.trim();
            if (name.isEmpty()) continue;
            total++;
            try {
                Class<?> c = Class.forName(name, true, loader);
                c.getDeclaredMethods(); // resolves signatures of all methods
            } catch (Throwable t) {
                failed++;
                String msg = String.valueOf(t.getMessage()).replace('\n', ' ');
                out.println("FAIL " + name + " " + t.getClass().getName() + ": " + msg);
            }
        }
        resetAll(out, loader);
        out.println("TOTAL " + total + " FAILED " + failed);
        out.flush();
        System.exit(0);
    }

    /**
     * When the class path has ferrosuite's static reset runtime, calls every
     * reset of the classes initialised above once and prints
     * {@code RESETS <classes> THREW <k>}.
     */
    private static void resetAll(java.io.PrintStream out, ClassLoader loader) {
        try {
            Class<?> reset = Class.forName("ferrosuite.runtime.StaticReset", true, loader);
            // A reset that loops ends at the worker's back-edge limit instead of hanging the check.
            Class<?> sandbox = Class.forName("ferrosuite.runtime.Sandbox", true, loader);
            sandbox.getField("maxBackEdges").setInt(null, sandbox.getField("WORKER_BACK_EDGES").getInt(null));
            int classes = ((String[]) reset.getMethod("initialisedClasses").invoke(null)).length;
            int threw = (Integer) reset.getMethod("resetAll").invoke(null);
            out.println("RESETS " + classes + " THREW " + threw);
        } catch (ClassNotFoundException e) {
            // An original class path: nothing to reset.
        } catch (Throwable t) {
            out.println("RESETS FAILED " + t);
        }
    }
}
