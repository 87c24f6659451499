package ferrosuite.runtime;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * Static state reset: the classes that finished their static initialiser,
 * in that order, and the calls of their reset methods before each test.
 *
 * An instrumented class of the package under test calls
 * {@link #initialised} at the end of its {@code <clinit>} (a class whose
 * initialiser throws never gets there, and stays erroneous in the JVM), and
 * has a private static method {@code ferrosuite$reset} that sets its static
 * fields to their defaults and runs a copy of its initialiser. The worker
 * calls {@link #resetAll} before each test: completion order means a class
 * whose initialiser used another class's statics is reset after it.
 *
 * A reset that throws is counted in {@link #failures}; one that runs out of
 * time (the worker's {@link Sandbox#timeUp}, {@code Thread.stop}) is not
 * called again, so one slow initialiser cannot make every test time out.
 */
public final class StaticReset {
    private StaticReset() {}

    /** The reset method's name in instrumented classes. */
    public static final String RESET_METHOD = "ferrosuite$reset";

    private static String[] names = new String[16];
    private static Method[] resets = new Method[16];
    private static boolean[] disabled = new boolean[16];
    private static int count;

    /** Resets that threw since the worker started. */
    public static int failures;

    /** Called at the end of an instrumented class's static initialiser. */
    public static synchronized void initialised(String className) {
        for (int i = 0; i < count; i++) if (names[i].equals(className)) return;
        if (count == names.length) {
            names = java.util.Arrays.copyOf(names, 2 * count);
            resets = java.util.Arrays.copyOf(resets, 2 * count);
            disabled = java.util.Arrays.copyOf(disabled, 2 * count);
        }
        names[count++] = className;
    }

    /** The classes initialised so far, in order (binary names). */
    public static synchronized String[] initialisedClasses() {
        return java.util.Arrays.copyOf(names, count);
    }

    /**
     * Resets every class initialised so far, in initialisation order;
     * classes a reset initialises for the first time are not reset again.
     * Never throws; returns how many resets threw. Afterwards the loop
     * counter of the sandbox and the tracer are cleared, so the reset counts
     * neither toward the test's time nor its coverage.
     */
    public static int resetAll() {
        int n;
        synchronized (StaticReset.class) {
            n = count;
        }
        if (n == 0) return 0;
        int failed = 0;
        for (int i = 0; i < n; i++) {
            try {
                if (!disabled[i]) reset(i);
            } catch (Throwable t) {
                failed++;
                Throwable cause = t instanceof InvocationTargetException ? t.getCause() : t;
                if (Sandbox.timeUp || cause instanceof Sandbox.TimeUp || cause instanceof ThreadDeath) {
                    disabled[i] = true;
                }
            }
        }
        failures += failed;
        Sandbox.backEdges = 0;
        Tracer.reset();
        return failed;
    }

    private static java.lang.reflect.Field[] saved = new java.lang.reflect.Field[0];
    private static Object[] savedValues = new Object[0];

    /**
     * Saves the current values of the static fields that {@code spec} names
     * (lines of "binary class name, tab, field name"), which
     * {@link #restoreSaved} sets back: what an emitted suite's
     * {@code STATIC_STATE} does with the state its first test finds. Fields
     * that cannot be read are skipped; never throws.
     */
    public static void saveFields(String spec) {
        java.util.List<java.lang.reflect.Field> fields = new java.util.ArrayList<>();
        java.util.List<Object> values = new java.util.ArrayList<>();
        for (String line : spec.split("\n")) {
            int tab = line.indexOf('\t');
            if (tab < 0) continue;
            try {
                Class<?> c = Class.forName(line.substring(0, tab), true, StaticReset.class.getClassLoader());
                java.lang.reflect.Field f = c.getDeclaredField(line.substring(tab + 1));
                f.setAccessible(true);
                values.add(f.get(null));
                fields.add(f);
            } catch (Throwable t) {
                // not restored, as a suite whose restore fails would not get that far
            }
        }
        saved = fields.toArray(new java.lang.reflect.Field[0]);
        savedValues = values.toArray();
        Sandbox.backEdges = 0;
        Tracer.reset();
    }

    /** Sets the fields {@link #saveFields} saved back to their saved values; never throws. */
    public static void restoreSaved() {
        for (int i = 0; i < saved.length; i++) {
            try {
                saved[i].set(null, savedValues[i]);
            } catch (Throwable t) {
                // a final field: the suite cannot restore it either
            }
        }
    }

    private static void reset(int i) throws Exception {
        Method m = resets[i];
        if (m == null) {
            Class<?> c = Class.forName(names[i], false, StaticReset.class.getClassLoader());
            m = c.getDeclaredMethod(RESET_METHOD);
            m.setAccessible(true);
            resets[i] = m;
        }
        Sandbox.backEdges = 0; // each reset has the loop budget of a test
        m.invoke(null);
    }
}
