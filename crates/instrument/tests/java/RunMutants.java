import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;

/**
 * {@code RunMutants DIR MAIN}: runs {@code MAIN.main} once per mutant id
 * read from standard input (one per line), with that mutant active, each
 * time with the classes of the directory {@code DIR} (mutant schemas and
 * the ferrosuite runtime) loaded afresh, and prints
 * {@code id<TAB>hash<TAB>suspect} per id: a hash of what the run printed,
 * and the first line of it (or of the throwable that ended it) naming a
 * linkage or verification error, which a mutant schema must never cause
 * (empty when there is none). Loops end after a million back-edges
 * ({@code Sandbox.maxBackEdges}); output is captured (the first 4 MB).
 */
public final class RunMutants {
    private static final String[] SUSPECT = {"BootstrapMethodError", "LinkageError", "IncompatibleClassChangeError",
        "NoSuchMethodError", "NoSuchFieldError", "AbstractMethodError", "IllegalAccessError", "VerifyError",
        "WrongMethodTypeException", "ClassFormatError"};
    private static final int LIMIT = 4 << 20;

    public static void main(String[] args) throws Exception {
        URL[] path = {new File(args[0]).toURI().toURL()};
        PrintStream out = System.out;
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            if (line.trim().isEmpty()) continue;
            int id = Integer.parseInt(line.trim());
            final ByteArrayOutputStream captured = new ByteArrayOutputStream();
            PrintStream capture = new PrintStream(new OutputStream() {
                @Override public void write(int b) {
                    if (captured.size() < LIMIT) captured.write(b);
                }

                @Override public void write(byte[] b, int off, int len) {
                    captured.write(b, off, Math.max(0, Math.min(len, LIMIT - captured.size())));
                }
            }, true, "UTF-8");
            String ended = "";
            try (URLClassLoader loader = new URLClassLoader(path, ClassLoader.getPlatformClassLoader())) {
                Class<?> sandbox = Class.forName("ferrosuite.runtime.Sandbox", true, loader);
                sandbox.getField("maxBackEdges").setInt(null, 1_000_000);
                Class.forName("ferrosuite.runtime.Mutants", true, loader).getField("active").setInt(null, id);
                Method main = Class.forName(args[1], false, loader).getMethod("main", String[].class);
                System.setOut(capture);
                System.setErr(capture);
                main.invoke(null, (Object) new String[0]);
            } catch (InvocationTargetException e) {
                ended = String.valueOf(e.getCause());
                e.getCause().printStackTrace(capture);
            } catch (Throwable t) {
                ended = String.valueOf(t);
            } finally {
                System.setOut(out);
                System.setErr(out);
            }
            String text = new String(captured.toByteArray(), StandardCharsets.UTF_8) + "\n" + ended;
            String suspect = "";
            for (String l : text.split("\n")) {
                for (String s : SUSPECT) {
                    if (suspect.isEmpty() && l.contains(s)) suspect = l;
                }
            }
            out.println(id + "\t" + Integer.toHexString(text.hashCode()) + "\t" + suspect);
        }
    }
}
