package ferrosuite.runtime;

import java.util.Arrays;
import java.util.IdentityHashMap;

/**
 * The value log of TARDIS's concolic replay: the results of calls from
 * instrumented code into code the replay does not run (the JDK,
 * {@code invokedynamic}), in execution order, one event per call.
 *
 * Probes run right after such a call returns ({@code logI(result, site)},
 * ...). The worker sets {@link #cap} before each test (0: off, the default,
 * then a probe costs one field load and one compare) and reads the events
 * back with {@link #exportValues()} and {@link #exportValueTexts()}. Events
 * belong to the current execution ({@link Tracer#epoch}); the first event
 * after a reset forgets the older ones.
 *
 * Event layout: two longs per event, {@code site << 8 | kind} and the bits
 * of the value: an int, long, or the raw bits of a float or double; for a
 * box ({@link #BOX} + k) the primitive value (a boolean as 0 or 1, a float
 * or double as raw bits); for a string its length, with the text in
 * {@code refs} (null when the log's character budget {@link #MAX_CHARS} is
 * used up); for any other object its identity ordinal in this execution
 * (0, 1, ... by first appearance), with its class in {@code refs}. A probe
 * never calls a method of the class under test: only {@code getClass},
 * {@code instanceof} and identity hashing.
 *
 * Threading: the probes are synchronized, so events of several threads
 * interleave but are never torn. They never throw into the class under
 * test: a failure marks the log truncated instead.
 */
public final class ValueLog {
    private ValueLog() {}

    public static final int INT = 0;
    public static final int LONG = 1;
    public static final int FLOAT = 2;
    public static final int DOUBLE = 3;
    public static final int NULL = 4;
    public static final int STRING = 5;
    public static final int OBJECT = 6;
    /** First box kind: Integer, Long, Short, Byte, Character, Boolean, Float, Double follow in this order. */
    public static final int BOX = 7;

    /** Characters of logged strings kept per execution at most. */
    public static final int MAX_CHARS = 16384;

    /**
     * Events logged per execution at most; 0 turns the log off. Set by the
     * worker before each test; the system property {@code ferrosuite.valueLog}
     * gives the initial value (how the instrumentation tests turn it on).
     */
    public static int cap = Integer.getInteger("ferrosuite.valueLog", 0).intValue();

    private static int logEpoch;
    private static int count;
    private static boolean truncated;
    private static int chars;
    private static long[] events = new long[512];
    private static Object[] refs = new Object[256];
    private static IdentityHashMap<Object, Integer> identities;

    /** After a call returning {@code int}, {@code boolean}, {@code char}, {@code short} or {@code byte}. */
    public static void logI(int v, int site) {
        if (cap != 0) add(site, INT, v, null);
    }

    /** After a call returning {@code long}. */
    public static void logJ(long v, int site) {
        if (cap != 0) add(site, LONG, v, null);
    }

    /** After a call returning {@code float}. */
    public static void logF(float v, int site) {
        if (cap != 0) add(site, FLOAT, Float.floatToRawIntBits(v), null);
    }

    /** After a call returning {@code double}. */
    public static void logD(double v, int site) {
        if (cap != 0) add(site, DOUBLE, Double.doubleToRawLongBits(v), null);
    }

    /** After a call returning a reference. */
    public static void logA(Object o, int site) {
        if (cap != 0) addReference(site, o);
    }

    private static synchronized void addReference(int site, Object o) {
        try {
            fresh();
            if (o == null) {
                add(site, NULL, 0, null);
            } else if (o instanceof String) {
                String s = (String) o;
                boolean fits = chars + s.length() <= MAX_CHARS;
                if (fits) chars += s.length();
                add(site, STRING, s.length(), fits ? s : null);
            } else if (!addBox(site, o)) {
                if (identities == null) identities = new IdentityHashMap<Object, Integer>();
                Integer known = identities.get(o);
                if (known == null) {
                    known = Integer.valueOf(identities.size());
                    identities.put(o, known);
                }
                add(site, OBJECT, known.intValue(), o.getClass());
            }
        } catch (RuntimeException failure) {
            truncated = true;
        }
    }

    /** Logs a box with its primitive value; false when {@code o} is no box. */
    private static boolean addBox(int site, Object o) {
        if (o instanceof Integer) add(site, BOX, ((Integer) o).intValue(), null);
        else if (o instanceof Long) add(site, BOX + 1, ((Long) o).longValue(), null);
        else if (o instanceof Short) add(site, BOX + 2, ((Short) o).shortValue(), null);
        else if (o instanceof Byte) add(site, BOX + 3, ((Byte) o).byteValue(), null);
        else if (o instanceof Character) add(site, BOX + 4, ((Character) o).charValue(), null);
        else if (o instanceof Boolean) add(site, BOX + 5, ((Boolean) o).booleanValue() ? 1 : 0, null);
        else if (o instanceof Float) add(site, BOX + 6, Float.floatToRawIntBits(((Float) o).floatValue()), null);
        else if (o instanceof Double) add(site, BOX + 7, Double.doubleToRawLongBits(((Double) o).doubleValue()), null);
        else return false;
        return true;
    }

    private static synchronized void add(int site, int kind, long bits, Object ref) {
        try {
            fresh();
            if (count >= cap) {
                truncated = true;
                return;
            }
            if (2 * count + 2 > events.length) events = Arrays.copyOf(events, events.length * 2);
            if (count >= refs.length) refs = Arrays.copyOf(refs, refs.length * 2);
            events[2 * count] = ((long) site << 8) | kind;
            events[2 * count + 1] = bits;
            refs[count] = ref;
            count++;
        } catch (RuntimeException failure) {
            truncated = true;
        } catch (OutOfMemoryError full) {
            truncated = true;
        }
    }

    /** Starts a new log when the tracer was reset since the last event. */
    private static void fresh() {
        if (logEpoch == Tracer.epoch) return;
        logEpoch = Tracer.epoch;
        Arrays.fill(refs, 0, Math.min(count, refs.length), null);
        count = 0;
        truncated = false;
        chars = 0;
        identities = null;
    }

    /** {@code [count, truncated ? 1 : 0, events...]} of the current execution (layout in the class comment). */
    public static synchronized long[] exportValues() {
        if (logEpoch != Tracer.epoch) return new long[] {0, 0};
        long[] out = new long[2 + 2 * count];
        out[0] = count;
        out[1] = truncated ? 1 : 0;
        System.arraycopy(events, 0, out, 2, 2 * count);
        return out;
    }

    /** Per event of the current execution: a string's text, an object's class name, else null. */
    public static synchronized String[] exportValueTexts() {
        int n = logEpoch == Tracer.epoch ? count : 0;
        String[] out = new String[n];
        for (int i = 0; i < n; i++) {
            Object r = refs[i];
            out[i] = r instanceof Class ? ((Class<?>) r).getName() : (String) r;
        }
        return out;
    }
}
