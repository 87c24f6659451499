package ferrosuite.runtime;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.BufferedReader;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.util.Collection;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The sink of the recording probes (Palus's sample execution): the entry
 * and exit of every recorded method, with its receiver, arguments and
 * result, written as one line per event to {@code DIR/events.txt}, where
 * DIR is the system property {@code ferrosuite.record}. Without that
 * property every method returns at once.
 *
 * <p>{@code DIR/classes.txt} lists the recorded classes (binary names, one
 * per line). Only <em>outermost</em> calls are written: calls with no frame
 * of a recorded class above the called method (the calls a client makes,
 * not the class's calls to itself). Entry and exit lines carry the depth of
 * the stack, so that the reader pairs them even when a call ends by an
 * exception (it then has no exit line).
 *
 * <p>Lines, fields separated by TAB (strings escape backslash, TAB, CR and
 * LF as {@code \\ \t \r \n}):
 * <pre>
 *   J                                        a new JVM: object ids start again
 *   T  test                                  the test running now (system property ferro.test)
 *   E  thread  depth  method  receiver  arg...   entry of method (its id)
 *   X  thread  depth  method  receiver  result   normal exit ("v" for void)
 * </pre>
 * A value is {@code n} (null), {@code I:5} (and {@code J S B F D Z}, and
 * {@code C:} with the char's code) for a boxed primitive, {@code s:text}
 * (at most 200 chars), {@code e:Class.NAME} for an enum constant, or
 * {@code o:id:Class:profile} for any other object: {@code id} numbers
 * objects in the order first seen (identity), {@code profile} abstracts its
 * fields as Palus does ({@code name=v;...}: numbers {@code -}/{@code 0}/{@code +},
 * booleans and enums kept, arrays {@code null}/{@code E} (empty)/{@code N}
 * (holds null)/{@code O}, other references {@code null}/{@code nn}); a
 * JDK collection, map or array gives its size instead ({@code size=2},
 * exact up to 8, else {@code many}). Receivers are object ids ({@code -}
 * for none: static methods, constructors on entry).
 *
 * <p>The file is a {@link TraceFile} (buffered, flushed every 200 ms). The
 * recorder never throws into the code it records, and calls no method of a
 * recorded class.
 */
public final class Recorder {
    private Recorder() {}

    private static final Object LOCK = new Object();
    private static final Set<String> RECORDED = new HashSet<String>();
    private static final Map<Object, Integer> IDS = new IdentityHashMap<Object, Integer>();
    private static final ThreadLocal<Boolean> BUSY = new ThreadLocal<Boolean>();
    private static final int MAX_STRING = 200;
    private static final int MAX_OBJECTS = 1000000;
    /** Opened last: it fills {@link #RECORDED}. */
    private static final TraceFile OUT = open();

    private static TraceFile open() {
        String dir = System.getProperty("ferrosuite.record");
        if (dir == null) {
            return null;
        }
        try {
            BufferedReader in = new BufferedReader(
                    new InputStreamReader(new FileInputStream(new File(dir, "classes.txt")), "UTF-8"));
            try {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (line.length() > 0) {
                        RECORDED.add(line);
                    }
                }
            } finally {
                in.close();
            }
        } catch (IOException e) {
            System.err.println("ferrosuite recorder: cannot record into " + dir + ": " + e);
            return null;
        }
        return TraceFile.open(dir, "events.txt");
    }

    /** Entry of recorded method {@code method}: {@code receiver} is null for static methods and constructors. */
    public static void enter(int method, Object receiver, Object[] args) {
        if (OUT == null || BUSY.get() != null) {
            return;
        }
        BUSY.set(Boolean.TRUE);
        try {
            StackTraceElement[] stack = new Throwable().getStackTrace();
            if (!outermost(stack)) {
                return;
            }
            StringBuilder line = header("E", stack.length, method, receiver);
            for (Object a : args) {
                line.append('\t').append(value(a));
            }
            write(line, true);
        } catch (Throwable t) {
            // never into the recorded code
        } finally {
            BUSY.remove();
        }
    }

    /** Normal exit of recorded method {@code method} with {@code result}. */
    public static void exit(Object result, int method, Object receiver) {
        exit(method, receiver, result, false);
    }

    /** Normal exit of a recorded {@code void} method (or constructor). */
    public static void exitVoid(int method, Object receiver) {
        exit(method, receiver, null, true);
    }

    private static void exit(int method, Object receiver, Object result, boolean isVoid) {
        if (OUT == null || BUSY.get() != null) {
            return;
        }
        BUSY.set(Boolean.TRUE);
        try {
            StackTraceElement[] stack = new Throwable().getStackTrace();
            // frames: exit(4 args), exit/exitVoid, the method, its callers
            if (!outermost(stack, 3)) {
                return;
            }
            StringBuilder line = header("X", stack.length - 1, method, receiver);
            line.append('\t').append(isVoid ? "v" : value(result));
            write(line, false);
        } catch (Throwable t) {
            // never into the recorded code
        } finally {
            BUSY.remove();
        }
    }

    private static boolean outermost(StackTraceElement[] stack) {
        return outermost(stack, 2);
    }

    /** Whether no frame from {@code first} on (the callers) belongs to a recorded class. */
    private static boolean outermost(StackTraceElement[] stack, int first) {
        for (int i = first; i < stack.length; i++) {
            String c = stack[i].getClassName();
            int dollar = c.indexOf('$');
            if (RECORDED.contains(c) || (dollar > 0 && RECORDED.contains(c.substring(0, dollar)))) {
                return false;
            }
        }
        return true;
    }

    private static StringBuilder header(String kind, int depth, int method, Object receiver) {
        StringBuilder line = new StringBuilder(64);
        line.append(kind).append('\t').append(Thread.currentThread().getId()).append('\t').append(depth);
        line.append('\t').append(method).append('\t');
        if (receiver == null) {
            line.append('-');
        } else {
            synchronized (LOCK) {
                line.append(id(receiver));
            }
        }
        return line;
    }

    private static void write(StringBuilder line, boolean entry) throws IOException {
        OUT.write(line, entry ? System.getProperty("ferro.test", "") : null);
    }

    private static int id(Object o) {
        Integer known = IDS.get(o);
        if (known != null) {
            return known;
        }
        int next = IDS.size() + 1;
        if (IDS.size() < MAX_OBJECTS) {
            IDS.put(o, next);
        }
        return next;
    }

    private static String value(Object v) {
        if (v == null) {
            return "n";
        }
        if (v instanceof String) {
            String s = (String) v;
            return "s:" + escape(s.length() > MAX_STRING ? s.substring(0, MAX_STRING) : s);
        }
        String prim = primitive(v);
        if (prim != null) {
            return prim;
        }
        if (v instanceof Enum) {
            Enum<?> e = (Enum<?>) v;
            return "e:" + e.getDeclaringClass().getName() + "." + e.name();
        }
        int id;
        synchronized (LOCK) {
            id = id(v);
        }
        return "o:" + id + ":" + v.getClass().getName() + ":" + escape(profile(v));
    }

    private static String primitive(Object v) {
        if (v instanceof Integer) {
            return "I:" + v;
        } else if (v instanceof Long) {
            return "J:" + v;
        } else if (v instanceof Boolean) {
            return "Z:" + v;
        } else if (v instanceof Character) {
            return "C:" + (int) ((Character) v).charValue();
        } else if (v instanceof Double) {
            return "D:" + v;
        } else if (v instanceof Float) {
            return "F:" + v;
        } else if (v instanceof Short) {
            return "S:" + v;
        } else if (v instanceof Byte) {
            return "B:" + v;
        }
        return null;
    }

    /** Palus's abstract object profile of {@code v} (see the class comment). */
    private static String profile(Object v) {
        Class<?> c = v.getClass();
        if (c.isArray()) {
            return "size=" + size(Array.getLength(v));
        }
        if (Fields.isJdk(c.getName())) {
            if (v instanceof Collection) {
                return "size=" + size(((Collection<?>) v).size());
            }
            if (v instanceof Map) {
                return "size=" + size(((Map<?, ?>) v).size());
            }
            return "";
        }
        StringBuilder out = new StringBuilder();
        for (Field f : Fields.of(c)) {
            if (out.length() > 0) {
                out.append(';');
            }
            out.append(f.getName()).append('=');
            try {
                out.append(abstractValue(f.getType(), f.get(v)));
            } catch (Throwable t) {
                out.append('?');
            }
        }
        return out.toString();
    }

    private static String abstractValue(Class<?> type, Object x) {
        if (type.isPrimitive()) {
            if (x instanceof Boolean) {
                return x.toString();
            }
            double d = x instanceof Character ? (double) ((Character) x).charValue() : ((Number) x).doubleValue();
            return d < 0 ? "-" : d == 0 ? "0" : d > 0 ? "+" : "NaN";
        }
        if (x == null) {
            return "null";
        }
        if (x instanceof Enum) {
            return ((Enum<?>) x).name();
        }
        if (x.getClass().isArray()) {
            int n = Array.getLength(x);
            if (n == 0) {
                return "E";
            }
            if (!x.getClass().getComponentType().isPrimitive()) {
                for (int i = 0; i < n; i++) {
                    if (Array.get(x, i) == null) {
                        return "N";
                    }
                }
            }
            return "O";
        }
        return "nn";
    }

    private static String size(int n) {
        return n <= 8 ? String.valueOf(n) : "many";
    }

    private static String escape(String s) {
        return TraceFile.escape(s);
    }
}
