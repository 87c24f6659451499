package ferrosuite.runtime;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sink of the value-tracing probes (ZoomIn's tracing, TECHNIQUES.md §3
 * step 1): for every normal exit of a traced method, the values of its
 * receiver and parameters on entry, of its receiver and result
 * on exit, each with its fields to a bounded depth, and the lines of the
 * class under test executed between the method's entry and exit (its
 * coverage profile). Written to {@code DIR/values.txt} ({@link TraceFile}),
 * where DIR is the system property {@code ferrosuite.trace}; without it
 * every method returns at once. {@code ferrosuite.trace.depth} (default 2)
 * bounds the field depth, {@code ferrosuite.trace.max} (default 1000) the
 * exits written per method and test.
 *
 * <p>One line per exit, fields separated by TAB:
 * <pre>
 *   X  method  depth  line  entry  exit  profile
 * </pre>
 * {@code method} is the traced method's id; {@code depth} the number of
 * traced calls in progress below it on its thread (0: the outermost, a call
 * from outside the traced class); {@code line} the line of the
 * running test's method (system property {@code ferro.test},
 * {@code Class#method}) that made the outermost traced call (-1 when not
 * found); {@code entry} and {@code exit} are {@code name=value} pairs
 * separated by {@code ;}; {@code profile} the executed lines, separated by
 * {@code ,}. Names: {@code this}, {@code p0}, {@code p1}... (parameters by
 * position), {@code return}; then {@code .field}, {@code .length} and
 * {@code [0]} to {@code [2]} for arrays, {@code .size()} for JDK
 * collections and maps. Values: {@code n} (null), {@code r:id} (another
 * reference; ids number objects by identity), {@code i:5} (integral
 * types and char), {@code z:1}/{@code z:0}, {@code d:-0.0} (float and
 * double, as {@code Double.toString}), {@code s:text} (a string, at most 200
 * chars, with {@code \ ; = TAB CR LF} escaped as
 * {@code \\ \s \e \t \r \n}). A call that ends by an exception writes
 * nothing; its lines count for its caller.
 *
 * <p>The tracer calls no method of the traced code: it reads fields by
 * reflection and asks only JDK collections for their size.
 */
public final class ValueTracer {
    private ValueTracer() {}

    private static final int MAX_STRING = 200;
    private static final int MAX_ELEMENTS = 3;
    private static final int MAX_VARIABLES = 60;
    private static final int MAX_OBJECTS = 1000000;
    private static final int DEPTH = Integer.getInteger("ferrosuite.trace.depth", 2).intValue();
    private static final int MAX_PER_TEST = Integer.getInteger("ferrosuite.trace.max", 1000).intValue();
    /** Exits written per method in the running test ({@link #writtenIn}). */
    private static final Map<Integer, int[]> WRITTEN = new HashMap<Integer, int[]>();
    private static String writtenIn = "";
    private static final Object LOCK = new Object();
    private static final Map<Object, Integer> IDS = new IdentityHashMap<Object, Integer>();
    private static final ThreadLocal<Boolean> BUSY = new ThreadLocal<Boolean>();
    private static final ThreadLocal<List<Frame>> FRAMES = new ThreadLocal<List<Frame>>() {
        protected List<Frame> initialValue() {
            return new ArrayList<Frame>();
        }
    };
    private static final TraceFile OUT = open();

    private static TraceFile open() {
        String dir = System.getProperty("ferrosuite.trace");
        return dir == null ? null : TraceFile.open(dir, "values.txt");
    }

    /** A traced call in progress. */
    private static final class Frame {
        final int method;
        final int depth;
        final int line;
        final String entry;
        /** Java stack frames under {@code enter} when the call began. */
        final int stack;
        final BitSet lines = new BitSet();

        Frame(int method, int depth, int line, String entry, int stack) {
            this.method = method;
            this.depth = depth;
            this.line = line;
            this.entry = entry;
            this.stack = stack;
        }
    }

    /** Entry of traced method {@code method}: {@code receiver} is null for static methods and constructors. */
    public static void enter(int method, Object receiver, Object[] args) {
        if (OUT == null || BUSY.get() != null) {
            return;
        }
        BUSY.set(Boolean.TRUE);
        try {
            List<Frame> frames = FRAMES.get();
            StackTraceElement[] stack = new Throwable().getStackTrace();
            // Frames as deep as this call or deeper belong to calls that ended by an exception.
            while (!frames.isEmpty() && frames.get(frames.size() - 1).stack >= stack.length) {
                drop(frames);
            }
            int line = frames.isEmpty() ? testLine(stack) : frames.get(frames.size() - 1).line;
            Variables entry = new Variables();
            if (!full(method, false)) {
                if (receiver != null) {
                    flatten(entry, "this", receiver, 0);
                }
                for (int i = 0; i < args.length; i++) {
                    flatten(entry, "p" + i, args[i], 0);
                }
            }
            frames.add(new Frame(method, frames.size(), line, entry.text.toString(), stack.length));
        } catch (Throwable t) {
            // never into the traced code
        } finally {
            BUSY.remove();
        }
    }

    /** A line of the class under test starts executing. */
    public static void line(int line) {
        if (OUT == null) {
            return;
        }
        List<Frame> frames = FRAMES.get();
        if (!frames.isEmpty() && line >= 0) {
            frames.get(frames.size() - 1).lines.set(line);
        }
    }

    /** Normal exit of traced method {@code method} with {@code result}. */
    public static void exit(Object result, int method, Object receiver) {
        exit(method, receiver, result, false);
    }

    /** Normal exit of a traced {@code void} method (or constructor). */
    public static void exitVoid(int method, Object receiver) {
        exit(method, receiver, null, true);
    }

    private static void exit(int method, Object receiver, Object result, boolean isVoid) {
        if (OUT == null || BUSY.get() != null) {
            return;
        }
        BUSY.set(Boolean.TRUE);
        try {
            Frame frame = pop(method);
            if (frame == null || full(method, true)) {
                return;
            }
            Variables exit = new Variables();
            if (receiver != null) {
                flatten(exit, "this", receiver, 0);
            }
            if (!isVoid) {
                flatten(exit, "return", result, 0);
            }
            StringBuilder line = new StringBuilder(256);
            line.append("X\t").append(method).append('\t').append(frame.depth).append('\t');
            line.append(frame.line).append('\t');
            line.append(frame.entry).append('\t').append(exit.text).append('\t');
            boolean first = true;
            for (int l = frame.lines.nextSetBit(0); l >= 0; l = frame.lines.nextSetBit(l + 1)) {
                if (!first) {
                    line.append(',');
                }
                line.append(l);
                first = false;
            }
            OUT.write(line, System.getProperty("ferro.test", ""));
        } catch (Throwable t) {
            // never into the traced code
        } finally {
            BUSY.remove();
        }
    }

    /**
     * Pops the frame of {@code method}: frames above it were left by calls
     * that ended by an exception (as are frames {@code enter} finds at or
     * below its own stack depth). Each popped frame's lines go to the frame
     * below (a callee's lines are its caller's too). Null when no frame of
     * {@code method} is open.
     */
    private static Frame pop(int method) {
        List<Frame> frames = FRAMES.get();
        int at = frames.size() - 1;
        while (at >= 0 && frames.get(at).method != method) {
            at--;
        }
        if (at < 0) {
            return null;
        }
        Frame found = null;
        while (frames.size() > at) {
            found = drop(frames);
        }
        return found;
    }

    /** Removes the top frame; its lines go to the frame below. */
    private static Frame drop(List<Frame> frames) {
        Frame f = frames.remove(frames.size() - 1);
        if (!frames.isEmpty()) {
            frames.get(frames.size() - 1).lines.or(f.lines);
        }
        return f;
    }

    /**
     * Whether {@code method} has had {@code ferrosuite.trace.max} (default
     * 1000) exits written in the running test (a test that loops over a
     * method is sampled, not written out whole); {@code count}: one more.
     */
    private static boolean full(int method, boolean count) {
        synchronized (LOCK) {
            String test = System.getProperty("ferro.test", "");
            if (!test.equals(writtenIn)) {
                WRITTEN.clear();
                writtenIn = test;
            }
            int[] n = WRITTEN.get(Integer.valueOf(method));
            if (n == null) {
                n = new int[1];
                WRITTEN.put(Integer.valueOf(method), n);
            }
            if (n[0] >= MAX_PER_TEST) {
                return true;
            }
            if (count) {
                n[0]++;
            }
            return false;
        }
    }

    /**
     * The line of the running test method in {@code stack}, or -1: the frame
     * of the test class and method, else (a test inherited from a
     * superclass) the outermost frame of a method of that name, else the
     * innermost frame of the test class.
     */
    private static int testLine(StackTraceElement[] stack) {
        String test = System.getProperty("ferro.test", "");
        int hash = test.indexOf('#');
        if (hash < 0) {
            return -1;
        }
        String cls = test.substring(0, hash);
        String method = test.substring(hash + 1);
        int inherited = -1;
        int inClass = -1;
        for (int i = stack.length - 1; i >= 0; i--) {
            StackTraceElement e = stack[i];
            boolean sameClass = e.getClassName().equals(cls);
            if (e.getMethodName().equals(method)) {
                if (sameClass) {
                    return e.getLineNumber();
                }
                if (inherited < 0) {
                    inherited = e.getLineNumber();
                }
            }
            if (sameClass) {
                inClass = e.getLineNumber();
            }
        }
        return inherited >= 0 ? inherited : inClass;
    }

    /** The {@code name=value;...} text of one side of an exit line, and how many variables it holds. */
    private static final class Variables {
        final StringBuilder text = new StringBuilder();
        int count;

        /** Appends one variable, unless {@link #MAX_VARIABLES} are there; whether it did. */
        boolean add(String name, String value) {
            if (count >= MAX_VARIABLES) {
                return false;
            }
            if (count > 0) {
                text.append(';');
            }
            text.append(name).append('=').append(value);
            count++;
            return true;
        }
    }

    /** Adds {@code name=value} for {@code v} and, below {@link #DEPTH}, its parts. */
    private static void flatten(Variables out, String name, Object v, int depth) {
        if (!out.add(name, value(v)) || v == null || depth >= DEPTH || v instanceof String
                || v instanceof Number || v instanceof Boolean || v instanceof Character) {
            return;
        }
        Class<?> c = v.getClass();
        if (c.isArray()) {
            int n = Array.getLength(v);
            out.add(name + ".length", "i:" + n);
            for (int i = 0; i < n && i < MAX_ELEMENTS; i++) {
                flatten(out, name + "[" + i + "]", Array.get(v, i), depth + 1);
            }
        } else if (Fields.isJdk(c.getName())) {
            if (v instanceof Collection) {
                out.add(name + ".size()", "i:" + ((Collection<?>) v).size());
            } else if (v instanceof Map) {
                out.add(name + ".size()", "i:" + ((Map<?, ?>) v).size());
            }
        } else {
            for (Field f : Fields.of(c)) {
                Object x;
                try {
                    x = f.get(v);
                } catch (Throwable t) {
                    continue;
                }
                flatten(out, name + "." + f.getName(), x, depth + 1);
            }
        }
    }

    private static String value(Object v) {
        if (v == null) {
            return "n";
        }
        if (v instanceof String) {
            String s = (String) v;
            return "s:" + escape(s.length() > MAX_STRING ? s.substring(0, MAX_STRING) : s);
        }
        if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
            return "i:" + v;
        }
        if (v instanceof Character) {
            return "i:" + (int) ((Character) v).charValue();
        }
        if (v instanceof Boolean) {
            return ((Boolean) v).booleanValue() ? "z:1" : "z:0";
        }
        if (v instanceof Double || v instanceof Float) {
            return "d:" + Double.toString(((Number) v).doubleValue());
        }
        synchronized (LOCK) {
            Integer known = IDS.get(v);
            if (known == null) {
                known = Integer.valueOf(IDS.size() + 1);
                if (IDS.size() < MAX_OBJECTS) {
                    IDS.put(v, known);
                }
            }
            return "r:" + known;
        }
    }

    private static String escape(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\': out.append("\\\\"); break;
                case ';': out.append("\\s"); break;
                case '=': out.append("\\e"); break;
                case '\t': out.append("\\t"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                default: out.append(c);
            }
        }
        return out.toString();
    }
}
