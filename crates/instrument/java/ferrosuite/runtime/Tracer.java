package ferrosuite.runtime;

import java.util.Arrays;

/**
 * The probe sink of ferrosuite-instrumented classes.
 *
 * Instrumented code calls these static methods; they only write into the
 * public static arrays below, which the executor reads back after each test
 * execution. Ids are global probe ids handed out by the instrumenter, one id
 * space per probe kind (branch, switch, line, method).
 *
 * Field layout read by the executor (all arrays indexed by probe id):
 * - branch records: {@code branchHits} (executions of the conditional jump),
 *   {@code branchLt/branchEq/branchGt} (how often the compared operands
 *   {@code a, b} had {@code a < b}, {@code a == b}, {@code a > b}; reference
 *   and null checks count "same / null" in Eq and "different / non-null" in Gt;
 *   for a replaced lcmp/fcmp/dcmp the counts follow the JVM result, so NaN
 *   counts as Lt for fcmpl/dcmpl and Gt for fcmpg/dcmpg),
 *   {@code branchMinDiff/branchMaxDiff} (min and max of {@code a - b}) and
 *   {@code branchMinAbs} (min of {@code |a - b|}); references use 0 for the
 *   same object and 1 otherwise; NaN differences are not recorded.
 * - switch records: {@code switchHits}, and per switch up to
 *   {@link #MAX_SWITCH_VALUES} distinct values in {@code switchValues[id]},
 *   {@code switchValueCount[id]} of them in use.
 * - {@code lineHits}, {@code methodHits}: execution counts.
 * - For each kind a touched list ({@code touchedBranches} with
 *   {@code touchedBranchCount}, ...) naming the ids hit since the last
 *   {@link #reset()}, so read-back costs O(touched) and reset O(1).
 * An id's record belongs to the current execution when its epoch stamp
 * ({@code branchEpoch[id]}, ...) equals {@link #epoch}; it is reinitialised
 * on its first hit after a reset. {@code lineHits} counts executions of
 * line-number-table rows, so a line split in several rows counts once per row.
 *
 * Threading: probes may run on any thread of the class under test. They never
 * throw into it: an array that is too small is grown (under a lock) and the
 * probe retried once; a record lost to a race between threads is dropped.
 * A race with {@link #reset()} can at worst leave one stale entry, never hide
 * an id from later executions. The arrays may be replaced when they grow, so
 * readers must fetch the fields again after each execution ({@link #export()}
 * does).
 */
public final class Tracer {
    private Tracer() {}

    public static final int MAX_SWITCH_VALUES = 64;

    /** The current execution; records with another stamp are stale. */
    public static int epoch = 1;

    public static int[] branchEpoch = new int[256];
    public static int[] branchHits = new int[256];
    public static int[] branchLt = new int[256];
    public static int[] branchEq = new int[256];
    public static int[] branchGt = new int[256];
    public static double[] branchMinDiff = new double[256];
    public static double[] branchMaxDiff = new double[256];
    public static double[] branchMinAbs = new double[256];
    public static int[] touchedBranches = new int[256];
    public static int touchedBranchCount;

    public static int[] switchEpoch = new int[64];
    public static int[] switchHits = new int[64];
    public static int[][] switchValues = new int[64][];
    public static int[] switchValueCount = new int[64];
    public static int[] touchedSwitches = new int[64];
    public static int touchedSwitchCount;

    public static int[] lineEpoch = new int[256];
    public static int[] lineHits = new int[256];
    public static int[] touchedLines = new int[256];
    public static int touchedLineCount;

    public static int[] methodEpoch = new int[64];
    public static int[] methodHits = new int[64];
    public static int[] touchedMethods = new int[64];
    public static int touchedMethodCount;

    /** Forgets everything recorded since the last reset, and resets the {@link Environment}. */
    public static void reset() {
        allocatedAtReset = allocatedBytes();
        epoch++;
        touchedBranchCount = 0;
        touchedSwitchCount = 0;
        touchedLineCount = 0;
        touchedMethodCount = 0;
        Environment.reset();
    }

    /** Probe before {@code if_icmpXX}: the two int operands. */
    public static void cmpII(int a, int b, int id) {
        if (id >= branchEpoch.length || branchEpoch[id] != epoch) rememberNumbers(a, b);
        record(id, (double) ((long) a - (long) b), Integer.compare(a, b));
    }

    /** Probe before {@code ifXX} (compare with zero). */
    public static void cmpI(int a, int id) {
        if (a != 0 && (id >= branchEpoch.length || branchEpoch[id] != epoch)) rememberNumberPair(a, 0);
        record(id, (double) a, Integer.compare(a, 0));
    }

    /** Probe before {@code if_acmpXX}. */
    public static void cmpAA(Object a, Object b, int id) {
        record(id, a == b ? 0.0 : 1.0, a == b ? 0 : 1);
    }

    /** Probe before {@code ifnull}/{@code ifnonnull}. */
    public static void cmpA(Object a, int id) {
        record(id, a == null ? 0.0 : 1.0, a == null ? 0 : 1);
    }

    /** Replaces {@code lcmp} before a branch; same result. */
    public static int lcmp(long a, long b, int id) {
        if (id >= branchEpoch.length || branchEpoch[id] != epoch) rememberNumbers(a, b);
        int r = Long.compare(a, b);
        double d = (double) a - (double) b;
        if (d == 0.0 && r != 0) d = r; // keep the sign when the doubles round together
        record(id, d, r);
        return r;
    }

    /** Replaces {@code fcmpl} before a branch; same result (NaN gives -1). */
    public static int fcmpl(float a, float b, int id) {
        int r = a > b ? 1 : a == b ? 0 : -1;
        record(id, (double) a - (double) b, r);
        return r;
    }

    /** Replaces {@code fcmpg} before a branch; same result (NaN gives 1). */
    public static int fcmpg(float a, float b, int id) {
        int r = a < b ? -1 : a == b ? 0 : 1;
        record(id, (double) a - (double) b, r);
        return r;
    }

    /** Replaces {@code dcmpl} before a branch; same result (NaN gives -1). */
    public static int dcmpl(double a, double b, int id) {
        int r = a > b ? 1 : a == b ? 0 : -1;
        record(id, a - b, r);
        return r;
    }

    /** Replaces {@code dcmpg} before a branch; same result (NaN gives 1). */
    public static int dcmpg(double a, double b, int id) {
        int r = a < b ? -1 : a == b ? 0 : 1;
        record(id, a - b, r);
        return r;
    }

    /** "Unknown" for the call-condition values below (Long.MIN_VALUE). */
    public static final long UNKNOWN = Long.MIN_VALUE;

    /**
     * Probe before a call (KAT's trigger conditions): records the distance of
     * a condition over the call's operands as a branch record whose Eq count
     * says how often the condition held (distance 0) and whose minAbs is the
     * least distance.
     */
    public static void callCondition(double distance, int id) {
        record(id, distance, distance == 0.0 ? 0 : 1);
    }

    /**
     * Branch distance of {@code a rel b} (rel: 0 {@code <}, 1 {@code <=}, 2
     * {@code >}, 3 {@code >=}, 4 {@code ==}, 5 {@code !=}): 0 when it holds,
     * else how far it is from holding; 1 when a value is {@link #UNKNOWN}.
     */
    public static double conditionDistance(long a, long b, int rel) {
        if (a == UNKNOWN || b == UNKNOWN) return 1.0;
        double d = (double) a - (double) b;
        switch (rel) {
            case 0: return a < b ? 0.0 : d + 1.0;
            case 1: return a <= b ? 0.0 : d;
            case 2: return a > b ? 0.0 : -d + 1.0;
            case 3: return a >= b ? 0.0 : -d;
            case 4: return a == b ? 0.0 : Math.abs(d);
            default: return a != b ? 0.0 : 1.0;
        }
    }

    /** The smaller of two distances (a disjunction). */
    public static double minDistance(double a, double b) {
        return Math.min(a, b);
    }

    /** A reference as a condition value: 0 for null, 1 otherwise. */
    public static long referenceValue(Object o) {
        return o == null ? 0 : 1;
    }

    /**
     * The length or size of a JDK string, array, collection or map (-1 for
     * null); {@link #UNKNOWN} for other classes, whose code is not run.
     */
    public static long lengthValue(Object o) {
        if (o == null) return -1;
        if (o instanceof String) return ((String) o).length();
        if (o.getClass().isArray()) return java.lang.reflect.Array.getLength(o);
        if (o.getClass().getClassLoader() != null) return UNKNOWN;
        try {
            if (o instanceof StringBuilder) return ((StringBuilder) o).length();
            if (o instanceof StringBuffer) return ((StringBuffer) o).length();
            if (o instanceof java.util.Collection) return ((java.util.Collection<?>) o).size();
            if (o instanceof java.util.Map) return ((java.util.Map<?, ?>) o).size();
        } catch (RuntimeException e) {
            return UNKNOWN;
        }
        return UNKNOWN;
    }

    /**
     * The result of a query method of a JDK object (query: 0 hasNext, 1
     * hasMoreElements, 2 hasMoreTokens, 3 isEmpty, 4 isPresent, 5
     * hasRemaining, 6 hasPrevious), 1 for true; {@link #UNKNOWN} for null, other classes
     * (whose code is not run) and {@code Scanner}, whose queries read input.
     */
    public static long stateValue(Object o, int query) {
        if (o == null || o.getClass().getClassLoader() != null || o instanceof java.util.Scanner) return UNKNOWN;
        try {
            switch (query) {
                case 0: if (o instanceof java.util.Iterator) return bit(((java.util.Iterator<?>) o).hasNext()); break;
                case 1: if (o instanceof java.util.Enumeration) return bit(((java.util.Enumeration<?>) o).hasMoreElements()); break;
                case 2: if (o instanceof java.util.StringTokenizer) return bit(((java.util.StringTokenizer) o).hasMoreTokens()); break;
                case 3:
                    if (o instanceof String) return bit(((String) o).isEmpty());
                    if (o instanceof java.util.Collection) return bit(((java.util.Collection<?>) o).isEmpty());
                    if (o instanceof java.util.Map) return bit(((java.util.Map<?, ?>) o).isEmpty());
                    if (o instanceof java.util.Optional) return bit(!((java.util.Optional<?>) o).isPresent());
                    break;
                case 4: if (o instanceof java.util.Optional) return bit(((java.util.Optional<?>) o).isPresent()); break;
                case 5: if (o instanceof java.nio.Buffer) return bit(((java.nio.Buffer) o).hasRemaining()); break;
                case 6: if (o instanceof java.util.ListIterator) return bit(((java.util.ListIterator<?>) o).hasPrevious()); break;
                default: break;
            }
        } catch (RuntimeException e) {
            return UNKNOWN;
        }
        return UNKNOWN;
    }

    private static long bit(boolean b) {
        return b ? 1 : 0;
    }

    /** {@code a + b}, unknown when either is. */
    public static long addValues(long a, long b) {
        return a == UNKNOWN || b == UNKNOWN ? UNKNOWN : a + b;
    }

    /** {@code a - b}, unknown when either is. */
    public static long subtractValues(long a, long b) {
        return a == UNKNOWN || b == UNKNOWN ? UNKNOWN : a - b;
    }

    private static void record(int id, double diff, int sign) {
        try {
            recordUnchecked(id, diff, sign);
        } catch (RuntimeException tooSmallOrRace) {
            try {
                grow(id);
                recordUnchecked(id, diff, sign);
            } catch (RuntimeException dropped) {
                // A race with another thread: this record is lost.
            }
        }
    }

    private static void recordUnchecked(int id, double diff, int sign) {
        if (branchEpoch[id] != epoch) {
            branchEpoch[id] = epoch;
            branchHits[id] = 0;
            branchLt[id] = 0;
            branchEq[id] = 0;
            branchGt[id] = 0;
            branchMinDiff[id] = Double.POSITIVE_INFINITY;
            branchMaxDiff[id] = Double.NEGATIVE_INFINITY;
            branchMinAbs[id] = Double.POSITIVE_INFINITY;
            touchedBranches = append(touchedBranches, touchedBranchCount, id);
            touchedBranchCount++;
        }
        branchHits[id]++;
        if (sign < 0) branchLt[id]++;
        else if (sign == 0) branchEq[id]++;
        else branchGt[id]++;
        // An infinite difference (infinite operands, overflow) is clamped so that
        // an infinite min/max always means "no finite difference recorded".
        if (diff > Double.MAX_VALUE) diff = Double.MAX_VALUE;
        else if (diff < -Double.MAX_VALUE) diff = -Double.MAX_VALUE;
        if (diff < branchMinDiff[id]) branchMinDiff[id] = diff;
        if (diff > branchMaxDiff[id]) branchMaxDiff[id] = diff;
        double abs = Math.abs(diff);
        if (abs < branchMinAbs[id]) branchMinAbs[id] = abs;
    }

    /** Probe before {@code tableswitch}/{@code lookupswitch}: the key. */
    public static void switchValue(int value, int id) {
        try {
            switchUnchecked(value, id);
        } catch (RuntimeException tooSmallOrRace) {
            try {
                grow(id);
                switchUnchecked(value, id);
            } catch (RuntimeException dropped) {
                // A race with another thread: this record is lost.
            }
        }
    }

    private static void switchUnchecked(int value, int id) {
        if (switchEpoch[id] != epoch) {
            switchEpoch[id] = epoch;
            switchHits[id] = 0;
            switchValueCount[id] = 0;
            if (switchValues[id] == null) switchValues[id] = new int[MAX_SWITCH_VALUES];
            touchedSwitches = append(touchedSwitches, touchedSwitchCount, id);
            touchedSwitchCount++;
        }
        switchHits[id]++;
        int[] values = switchValues[id];
        int n = switchValueCount[id];
        for (int i = 0; i < n; i++) if (values[i] == value) return;
        if (n < MAX_SWITCH_VALUES) {
            values[n] = value;
            switchValueCount[id] = n + 1;
        }
    }

    /** Probe at the first instruction of a line-number-table row. */
    public static void line(int id) {
        try {
            lineUnchecked(id);
        } catch (RuntimeException tooSmallOrRace) {
            try {
                grow(id);
                lineUnchecked(id);
            } catch (RuntimeException dropped) {
                // A race with another thread: this record is lost.
            }
        }
    }

    private static void lineUnchecked(int id) {
        if (lineEpoch[id] != epoch) {
            lineEpoch[id] = epoch;
            lineHits[id] = 0;
            touchedLines = append(touchedLines, touchedLineCount, id);
            touchedLineCount++;
        }
        lineHits[id]++;
    }

    /** Probe at method entry. */
    public static void method(int id) {
        try {
            methodUnchecked(id);
        } catch (RuntimeException tooSmallOrRace) {
            try {
                grow(id);
                methodUnchecked(id);
            } catch (RuntimeException dropped) {
                // A race with another thread: this record is lost.
            }
        }
    }

    private static void methodUnchecked(int id) {
        if (methodEpoch[id] != epoch) {
            methodEpoch[id] = epoch;
            methodHits[id] = 0;
            touchedMethods = append(touchedMethods, touchedMethodCount, id);
            touchedMethodCount++;
        }
        methodHits[id]++;
    }

    /** {@code list} with {@code id} stored at {@code n}, grown when full. */
    private static int[] append(int[] list, int n, int id) {
        if (n >= list.length) list = Arrays.copyOf(list, Math.max(n + 1, list.length * 2));
        list[n] = id;
        return list;
    }

    private static int size(int id, int length) {
        return Math.max(id + 1, length * 2);
    }

    /** Grows every per-id array that is too small for {@code id}. */
    private static synchronized void grow(int id) {
        if (id < 0) throw new IllegalArgumentException("negative probe id " + id);
        if (id >= branchHits.length) {
            int n = size(id, branchHits.length);
            branchEpoch = Arrays.copyOf(branchEpoch, n);
            branchHits = Arrays.copyOf(branchHits, n);
            branchLt = Arrays.copyOf(branchLt, n);
            branchEq = Arrays.copyOf(branchEq, n);
            branchGt = Arrays.copyOf(branchGt, n);
            branchMinDiff = Arrays.copyOf(branchMinDiff, n);
            branchMaxDiff = Arrays.copyOf(branchMaxDiff, n);
            branchMinAbs = Arrays.copyOf(branchMinAbs, n);
        }
        if (id >= switchHits.length) {
            int n = size(id, switchHits.length);
            switchEpoch = Arrays.copyOf(switchEpoch, n);
            switchHits = Arrays.copyOf(switchHits, n);
            switchValues = Arrays.copyOf(switchValues, n);
            switchValueCount = Arrays.copyOf(switchValueCount, n);
        }
        if (id >= lineHits.length) {
            int n = size(id, lineHits.length);
            lineEpoch = Arrays.copyOf(lineEpoch, n);
            lineHits = Arrays.copyOf(lineHits, n);
        }
        if (id >= methodHits.length) {
            int n = size(id, methodHits.length);
            methodEpoch = Arrays.copyOf(methodEpoch, n);
            methodHits = Arrays.copyOf(methodHits, n);
        }
    }

    /** Strings kept per execution for dynamic seeding at most. */
    public static final int MAX_STRINGS = 32;
    /** Strings compared with {@code String.equals} and friends in this execution (see {@link #stringEquals}). */
    private static final StringLog seenStrings = new StringLog(MAX_STRINGS, 1);

    /**
     * Replaces {@code String.equals(Object)} in instrumented classes: same
     * result (and the same NullPointerException on a null receiver), and the
     * argument string is remembered so the search can reuse it as a seed
     * (EvoSuite's dynamic constant pool).
     */
    public static boolean stringEquals(String receiver, Object other) {
        boolean result = receiver.equals(other);
        if (other instanceof String) {
            remember((String) other);
            if (!result) remember(receiver, (String) other);
        }
        remember(receiver);
        return result;
    }

    /** {@code receiver.equalsIgnoreCase(other)}, remembering {@code other} (see {@link #stringEquals}). */
    public static boolean stringEqualsIgnoreCase(String receiver, String other) {
        boolean result = receiver.equalsIgnoreCase(other);
        remember(other);
        if (!result && other != null) remember(receiver, other);
        return result;
    }

    /** {@code receiver.startsWith(prefix)}, remembering the prefix. */
    public static boolean stringStartsWith(String receiver, String prefix) {
        boolean result = receiver.startsWith(prefix);
        remember(prefix);
        if (!result && !pairs.full()) remember(receiver, prefix.concat(receiver));
        return result;
    }

    /** {@code receiver.endsWith(suffix)}, remembering the suffix. */
    public static boolean stringEndsWith(String receiver, String suffix) {
        boolean result = receiver.endsWith(suffix);
        remember(suffix);
        if (!result && !pairs.full()) remember(receiver, receiver.concat(suffix));
        return result;
    }

    /** {@code receiver.contains(part)}, remembering the part when it is a string. */
    public static boolean stringContains(String receiver, CharSequence part) {
        boolean result = receiver.contains(part);
        if (part instanceof String) remember((String) part);
        return result;
    }

    /** Keys of a map remembered per missed lookup at most. */
    private static final int KEYS_PER_MISS = 2;
    /** Keys of a map read per missed lookup at most. */
    private static final int KEYS_READ = 64;
    /** Set while {@link #rememberKeys} reads a map: a map whose key set looks itself up is read once. */
    private static boolean readingKeys;

    /**
     * Replaces {@code map.get(key)} on the JDK's maps in instrumented
     * classes: same result (and exceptions); when a string key misses, a
     * few of the map's string keys are remembered as a failed
     * {@code equals} remembers the string (see {@link #rememberKeys}).
     */
    public static Object mapGet(java.util.Map<?, ?> map, Object key) {
        Object value = map.get(key);
        if (value == null && key instanceof String) rememberKeys(map, (String) key);
        return value;
    }

    /** {@code map.containsKey(key)}, remembering keys on a miss (see {@link #mapGet}). */
    public static boolean mapContainsKey(java.util.Map<?, ?> map, Object key) {
        boolean found = map.containsKey(key);
        if (!found && key instanceof String) rememberKeys(map, (String) key);
        return found;
    }

    /** {@code properties.getProperty(key)}, remembering keys on a miss (see {@link #mapGet}). */
    public static String propertiesGetProperty(java.util.Properties properties, String key) {
        String value = properties.getProperty(key);
        if (value == null && key != null) rememberKeys(properties, key);
        return value;
    }

    /**
     * Remembers up to {@link #KEYS_PER_MISS} string keys of {@code map} (of
     * its first {@link #KEYS_READ}, chosen by the missed key's hash so that
     * other misses see others) as seeds, each with the pair (missed key,
     * map key) for input-to-state substitution. Nothing when the pairs are
     * full or reading the keys fails.
     */
    private static void rememberKeys(java.util.Map<?, ?> map, String missed) {
        if (readingKeys || pairs.full() || missed.length() > MAX_LENGTH || map.isEmpty()) return;
        rememberAmong(map.keySet(), missed);
    }

    /** {@code collection.contains(element)}, remembering elements on a miss (see {@link #mapGet}). */
    public static boolean collectionContains(java.util.Collection<?> collection, Object element) {
        boolean found = collection.contains(element);
        if (!found && element instanceof String) {
            String missed = (String) element;
            if (!readingKeys && !pairs.full() && missed.length() <= MAX_LENGTH && !collection.isEmpty()) {
                rememberAmong(collection, missed);
            }
        }
        return found;
    }

    /**
     * {@code Arrays.binarySearch(array, key)}; when a string key misses, the
     * strings either side of its insertion point are remembered as a
     * failed {@code equals} remembers the string (a sorted table of
     * top-level domains or keywords).
     */
    public static int arraysBinarySearch(Object[] array, Object key) {
        int at = java.util.Arrays.binarySearch(array, key);
        if (at < 0 && key instanceof String && !pairs.full() && ((String) key).length() <= MAX_LENGTH) {
            int insertion = -at - 1;
            for (int i = Math.max(0, insertion - 1); i <= Math.min(array.length - 1, insertion); i++) {
                if (array[i] instanceof String) {
                    remember((String) array[i]);
                    remember((String) key, (String) array[i]);
                }
            }
        }
        return at;
    }

    /**
     * {@code type.getMethod(name, parameters)}; when no such method exists,
     * the names of a few of the type's public methods are remembered as a
     * missed map lookup remembers keys (a converter told the name of its
     * {@code toString} method).
     */
    public static java.lang.reflect.Method classGetMethod(Class<?> type, String name, Class<?>[] parameters)
            throws NoSuchMethodException {
        try {
            return type.getMethod(name, parameters);
        } catch (NoSuchMethodException missed) {
            rememberMemberNames(type, name, false, true);
            throw missed;
        }
    }

    /** {@code type.getDeclaredMethod(name, parameters)}, remembering method names on a miss. */
    public static java.lang.reflect.Method classGetDeclaredMethod(Class<?> type, String name, Class<?>[] parameters)
            throws NoSuchMethodException {
        try {
            return type.getDeclaredMethod(name, parameters);
        } catch (NoSuchMethodException missed) {
            rememberMemberNames(type, name, true, true);
            throw missed;
        }
    }

    /** {@code type.getField(name)}, remembering field names on a miss. */
    public static java.lang.reflect.Field classGetField(Class<?> type, String name) throws NoSuchFieldException {
        try {
            return type.getField(name);
        } catch (NoSuchFieldException missed) {
            rememberMemberNames(type, name, false, false);
            throw missed;
        }
    }

    /** {@code type.getDeclaredField(name)}, remembering field names on a miss. */
    public static java.lang.reflect.Field classGetDeclaredField(Class<?> type, String name) throws NoSuchFieldException {
        try {
            return type.getDeclaredField(name);
        } catch (NoSuchFieldException missed) {
            rememberMemberNames(type, name, true, false);
            throw missed;
        }
    }

    /**
     * Remembers a few names of {@code type}'s methods or fields (declared
     * ones, or public ones with inherited) for the missed name
     * ({@link #rememberAmong}).
     */
    private static void rememberMemberNames(Class<?> type, String missed, boolean declared, boolean methods) {
        if (missed == null || readingKeys || pairs.full() || missed.length() > MAX_LENGTH) return;
        try {
            java.lang.reflect.Member[] members = methods
                    ? (declared ? type.getDeclaredMethods() : type.getMethods())
                    : (declared ? type.getDeclaredFields() : type.getFields());
            java.util.LinkedHashSet<String> names = new java.util.LinkedHashSet<>();
            for (java.lang.reflect.Member m : members) {
                if (!m.isSynthetic()) names.add(m.getName());
            }
            if (!names.isEmpty()) rememberAmong(names, missed);
        } catch (RuntimeException | LinkageError unreadable) {
            // members that cannot be listed: nothing is remembered
        }
    }

    /**
     * Remembers up to {@link #KEYS_PER_MISS} strings of {@code candidates}
     * (of the first {@link #KEYS_READ}, chosen by the missed string's hash so
     * that other misses see others) as seeds, each with the pair (missed,
     * candidate) for input-to-state substitution.
     */
    private static void rememberAmong(Iterable<?> candidates, String missed) {
        readingKeys = true;
        try {
            String[] keys = new String[KEYS_READ];
            int n = 0;
            for (Object k : candidates) {
                if (n == keys.length) break;
                if (k instanceof String) keys[n++] = (String) k;
            }
            int start = n == 0 ? 0 : Math.floorMod(missed.hashCode(), n);
            for (int i = 0; i < Math.min(KEYS_PER_MISS, n); i++) {
                String wanted = keys[(start + i) % n];
                remember(wanted);
                remember(missed, wanted);
            }
        } catch (RuntimeException unreadable) {
            // A map or collection that cannot be read now: nothing is remembered.
        } finally {
            readingKeys = false;
        }
    }

    /**
     * How the wanted side of a pair that is a regular expression starts: a
     * string matched against it failed, and the search puts samples of the
     * pattern's language in its place ({@code search::input_to_state}).
     */
    public static final String REGEX_PAIR = "\u0000regex:";
    /** The longest pattern remembered, in chars. */
    private static final int MAX_PATTERN = 2000;
    /** Matchers made recently by {@link #patternMatcher}, with their inputs; a ring. */
    private static final java.util.regex.Matcher[] matchers = new java.util.regex.Matcher[8];
    private static final String[] matcherInputs = new String[8];
    private static final boolean[] matcherTried = new boolean[8];
    private static int nextMatcher;

    /**
     * Replaces {@code pattern.matcher(input)}: the same matcher, whose input
     * is remembered (when short enough) for {@link #matcherMatches} and the
     * like.
     */
    public static java.util.regex.Matcher patternMatcher(java.util.regex.Pattern pattern, CharSequence input) {
        java.util.regex.Matcher m = pattern.matcher(input);
        try {
            int i = nextMatcher;
            nextMatcher = (i + 1) % matchers.length;
            matchers[i] = m;
            matcherInputs[i] = input.length() <= MAX_LENGTH ? input.toString() : null;
            matcherTried[i] = false;
        } catch (RuntimeException race) {
            // another thread: this matcher's input is not remembered
        }
        return m;
    }

    /** {@code matcher.matches()}, remembering a regex pair on a miss (see {@link #missedPattern}). */
    public static boolean matcherMatches(java.util.regex.Matcher matcher) {
        return matched(matcher, matcher.matches());
    }

    /** {@code matcher.lookingAt()}, remembering a regex pair on a miss. */
    public static boolean matcherLookingAt(java.util.regex.Matcher matcher) {
        return matched(matcher, matcher.lookingAt());
    }

    /** {@code matcher.find()}, remembering a regex pair when its first find misses (a loop's last find is no miss). */
    public static boolean matcherFind(java.util.regex.Matcher matcher) {
        return matched(matcher, matcher.find());
    }

    /** {@code input.matches(regex)}, remembering a regex pair on a miss. */
    public static boolean stringMatches(String input, String regex) {
        boolean result = input.matches(regex);
        if (!result) missedPattern(input, regex);
        return result;
    }

    /** {@code Pattern.matches(regex, input)}, remembering a regex pair on a miss. */
    public static boolean patternMatches(String regex, CharSequence input) {
        boolean result = java.util.regex.Pattern.matches(regex, input);
        if (!result && input.length() <= MAX_LENGTH) missedPattern(input.toString(), regex);
        return result;
    }

    /** {@code result} of a match of {@code matcher}; when its first try misses, the pair of its input and pattern. */
    private static boolean matched(java.util.regex.Matcher matcher, boolean result) {
        try {
            for (int i = 0; i < matchers.length; i++) {
                if (matchers[i] != matcher) continue;
                if (!result && !matcherTried[i] && matcherInputs[i] != null) {
                    missedPattern(matcherInputs[i], matcher.pattern().pattern());
                }
                matcherTried[i] = true;
                break;
            }
        } catch (RuntimeException race) {
            // another thread: nothing is remembered
        }
        return result;
    }

    /**
     * Remembers the pair ({@code input}, {@link #REGEX_PAIR} + {@code regex}):
     * {@code input} did not match {@code regex}, and a string of its
     * language in its place would.
     */
    private static void missedPattern(String input, String regex) {
        if (input.isEmpty() || input.length() > MAX_LENGTH || regex.length() > MAX_PATTERN) return;
        try {
            pairs.add(input, REGEX_PAIR + regex);
        } catch (RuntimeException race) {
            // A race with another thread: this pair is not remembered.
        }
    }

    /** The longest string remembered, in chars: longer ones are texts, not tokens. */
    private static final int MAX_LENGTH = 200;

    /** Remembers a string unless it is null or too long, or another thread races us. */
    private static void remember(String s) {
        if (s == null || s.length() > MAX_LENGTH) return;
        try {
            seenStrings.add(s, null);
        } catch (RuntimeException race) {
            // A race with another thread: this string is not remembered.
        }
    }

    /** Remembers a substitution (see {@link #pairs}) unless a side is too long or another thread races us. */
    private static void remember(String seen, String wanted) {
        if (seen.length() > MAX_LENGTH || wanted.length() > MAX_LENGTH) return;
        try {
            pairs.add(seen, wanted);
        } catch (RuntimeException race) {
            // A race with another thread: this pair is not remembered.
        }
    }

    /** Substitutions kept per execution at most. */
    public static final int MAX_PAIRS = 16;
    /**
     * Input-to-state pairs of this execution (Aschermann et al., "REDQUEEN:
     * Fuzzing with Input-to-State Correspondence", NDSS 2019, section 3.1):
     * a string a failed comparison saw (often a piece of the test's input,
     * such as a line read from a file) and the string that would have made
     * it succeed. Which side of an {@code equals} is the input is not known
     * here; the search tries both.
     */
    private static final StringLog pairs = new StringLog(MAX_PAIRS, 2);

    /** The pairs of the current execution, flattened: seen, wanted, seen, wanted, ... */
    public static String[] exportPairs() {
        return pairs.export();
    }

    /** Numbers kept per execution for dynamic seeding at most. */
    public static final int MAX_NUMBERS = 32;
    /** Operands of int and long comparisons, at the first execution of each jump in this execution. */
    private static final LongLog seenNumbers = new LongLog(MAX_NUMBERS, 1);

    /**
     * Remembers both operands of a comparison, so the search can reuse them
     * as seeds (EvoSuite's dynamic constant pool: numbers compared at run
     * time), and the pair when they differ. Called at a jump's first
     * execution in a test only, which keeps loops cheap.
     */
    private static void rememberNumbers(long a, long b) {
        try {
            seenNumbers.add(a, 0);
            seenNumbers.add(b, 0);
        } catch (RuntimeException race) {
            // A race with another thread: these numbers are not remembered.
        }
        if (a != b) rememberNumberPair(a, b);
    }

    /** Number pairs kept per execution at most. */
    public static final int MAX_NUMBER_PAIRS = 16;
    /**
     * Input-to-state pairs of int and long comparisons that were not equal
     * (see {@link #pairs}): the operands of a jump's first execution in a
     * test, and of a comparison with zero. Which operand came from the test
     * is not known here; the search tries both.
     */
    private static final LongLog numberPairs = new LongLog(MAX_NUMBER_PAIRS, 2);

    private static void rememberNumberPair(long seen, long wanted) {
        try {
            numberPairs.add(seen, wanted);
        } catch (RuntimeException race) {
            // A race with another thread: this pair is not remembered.
        }
    }

    /** The strings remembered in the current execution. */
    public static String[] exportStrings() {
        return seenStrings.export();
    }

    /**
     * Values remembered in one execution: at most {@code max} tuples of
     * {@code width} strings (1: single strings, 2: pairs), without repeats,
     * in the order first seen. The record of an earlier execution
     * ({@link #epoch} moved on) is dropped at its next use.
     */
    private static final class StringLog {
        private final String[] items;
        private final int width;
        private int size;
        private int at;

        StringLog(int max, int width) {
            this.items = new String[max * width];
            this.width = width;
        }

        private void forgetEarlierExecutions() {
            if (at != epoch) {
                at = epoch;
                size = 0;
            }
        }

        /** Whether this execution has all the tuples kept (then a new one need not be built). */
        boolean full() {
            return at == epoch && size == items.length;
        }

        /** Adds {@code (a, b)}, or {@code a} alone when the width is 1 ({@code b} is then ignored). */
        void add(String a, String b) {
            forgetEarlierExecutions();
            if (size == items.length) return;
            for (int i = 0; i < size; i += width) {
                if (a.equals(items[i]) && (width == 1 || b.equals(items[i + 1]))) return;
            }
            items[size++] = a;
            if (width == 2) items[size++] = b;
        }

        /** The tuples of this execution, flattened. */
        String[] export() {
            forgetEarlierExecutions();
            return Arrays.copyOf(items, size);
        }
    }

    /** {@link StringLog} for longs: the same bound, order and epoch rule. */
    private static final class LongLog {
        private final long[] items;
        private final int width;
        private int size;
        private int at;

        LongLog(int max, int width) {
            this.items = new long[max * width];
            this.width = width;
        }

        /** Adds {@code (a, b)}, or {@code a} alone when the width is 1. */
        void add(long a, long b) {
            if (at != epoch) {
                at = epoch;
                size = 0;
            }
            if (size == items.length) return;
            for (int i = 0; i < size; i += width) {
                if (items[i] == a && (width == 1 || items[i + 1] == b)) return;
            }
            items[size++] = a;
            if (width == 2) items[size++] = b;
        }

        /** How many longs this execution holds (tuples times width). */
        int size() {
            return at == epoch ? size : 0;
        }

        /** Writes this execution's longs into {@code out} from {@code k}; returns the next free index. */
        int writeTo(double[] out, int k) {
            int n = size();
            for (int i = 0; i < n; i++) out[k++] = items[i];
            return k;
        }
    }

    /**
     * All touched records in one array, read back by the worker with a single
     * JNI copy. Layout: {@code nBranches, (id, hits, lt, eq, gt, minDiff,
     * maxDiff, minAbs) * nBranches, nSwitches, (id, hits, nValues, values...)
     * * nSwitches, nLines, (id, hits) * nLines, nMethods, (id, hits) * nMethods,
     * nNumbers, numbers..., nNumberPairs, (seen, wanted) * nNumberPairs,
     * heapShareAllocated}
     * (numbers: {@link #rememberNumbers}, pairs: {@link #numberPairs}; a
     * long beyond 2^53 loses precision; the last: {@link #heapShareAllocated}).
     */
    public static double[] export() {
        int numbers = seenNumbers.size();
        int pairLongs = numberPairs.size();
        int size = 7 + touchedBranchCount * 8 + touchedLineCount * 2 + touchedMethodCount * 2 + numbers + pairLongs;
        for (int i = 0; i < touchedSwitchCount; i++) size += 3 + switchValueCount[touchedSwitches[i]];
        double[] r = new double[size];
        int k = 0;
        r[k++] = touchedBranchCount;
        for (int i = 0; i < touchedBranchCount; i++) {
            int id = touchedBranches[i];
            r[k++] = id;
            r[k++] = branchHits[id];
            r[k++] = branchLt[id];
            r[k++] = branchEq[id];
            r[k++] = branchGt[id];
            r[k++] = branchMinDiff[id];
            r[k++] = branchMaxDiff[id];
            r[k++] = branchMinAbs[id];
        }
        r[k++] = touchedSwitchCount;
        for (int i = 0; i < touchedSwitchCount; i++) {
            int id = touchedSwitches[i];
            r[k++] = id;
            r[k++] = switchHits[id];
            r[k++] = switchValueCount[id];
            for (int v = 0; v < switchValueCount[id]; v++) r[k++] = switchValues[id][v];
        }
        r[k++] = touchedLineCount;
        for (int i = 0; i < touchedLineCount; i++) {
            r[k++] = touchedLines[i];
            r[k++] = lineHits[touchedLines[i]];
        }
        r[k++] = touchedMethodCount;
        for (int i = 0; i < touchedMethodCount; i++) {
            r[k++] = touchedMethods[i];
            r[k++] = methodHits[touchedMethods[i]];
        }
        r[k++] = numbers;
        k = seenNumbers.writeTo(r, k);
        r[k++] = pairLongs / 2;
        k = numberPairs.writeTo(r, k);
        r[k] = heapShareAllocated();
        return r;
    }

    /** The allocation counter of this JVM's threads, when the JVM keeps one. */
    private static com.sun.management.ThreadMXBean threads;
    /** Whether {@link #threads} was looked up. */
    private static boolean threadsLookedUp;
    /** {@link #allocatedBytes} at the last {@link #reset}. */
    private static long allocatedAtReset;

    /**
     * Bytes the current thread (the worker's, which runs the test) has
     * allocated so far; 0 when the JVM does not count them.
     */
    private static long allocatedBytes() {
        if (!threadsLookedUp) {
            threadsLookedUp = true;
            try {
                java.lang.management.ThreadMXBean bean = java.lang.management.ManagementFactory.getThreadMXBean();
                if (bean instanceof com.sun.management.ThreadMXBean
                        && ((com.sun.management.ThreadMXBean) bean).isThreadAllocatedMemoryEnabled()) {
                    threads = (com.sun.management.ThreadMXBean) bean;
                }
            } catch (Throwable e) {
                threads = null;
            }
        }
        return threads == null ? 0 : threads.getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    /**
     * What the test since the last {@link #reset} allocated on this thread,
     * as a share of the largest heap ({@code -Xmx}): a test that allocated a
     * quarter of it may run out of memory in a JVM with half the heap.
     */
    static double heapShareAllocated() {
        long allocated = allocatedBytes() - allocatedAtReset;
        return Math.max(0, allocated) / (double) Runtime.getRuntime().maxMemory();
    }

    /**
     * Prints the touched records, one per line, for tests and for
     * {@code java -cp DIR:CP} runs: {@code branch ID hits lt eq gt minDiff maxDiff minAbs},
     * {@code switch ID hits v1,v2,...}, {@code line ID hits}, {@code method ID hits}.
     */
    public static String dump() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < touchedBranchCount; i++) {
            int id = touchedBranches[i];
            sb.append("branch ").append(id).append(' ').append(branchHits[id]).append(' ')
              .append(branchLt[id]).append(' ').append(branchEq[id]).append(' ').append(branchGt[id]).append(' ')
              .append(branchMinDiff[id]).append(' ').append(branchMaxDiff[id]).append(' ').append(branchMinAbs[id]).append('\n');
        }
        for (int i = 0; i < touchedSwitchCount; i++) {
            int id = touchedSwitches[i];
            sb.append("switch ").append(id).append(' ').append(switchHits[id]).append(' ');
            for (int k = 0; k < switchValueCount[id]; k++) sb.append(k == 0 ? "" : ",").append(switchValues[id][k]);
            sb.append('\n');
        }
        for (int i = 0; i < touchedLineCount; i++) sb.append("line ").append(touchedLines[i]).append(' ').append(lineHits[touchedLines[i]]).append('\n');
        for (int i = 0; i < touchedMethodCount; i++) sb.append("method ").append(touchedMethods[i]).append(' ').append(methodHits[touchedMethods[i]]).append('\n');
        return sb.toString();
    }
}
