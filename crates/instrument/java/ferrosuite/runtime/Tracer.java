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
 *   {@link #reset()}, so read-back and reset cost O(touched).
 * Records of an id are (re)initialised when it is first hit after a reset.
 */
public final class Tracer {
    private Tracer() {}

    public static final int MAX_SWITCH_VALUES = 64;

    public static int[] branchHits = new int[256];
    public static int[] branchLt = new int[256];
    public static int[] branchEq = new int[256];
    public static int[] branchGt = new int[256];
    public static double[] branchMinDiff = new double[256];
    public static double[] branchMaxDiff = new double[256];
    public static double[] branchMinAbs = new double[256];
    public static int[] touchedBranches = new int[256];
    public static int touchedBranchCount;

    public static int[] switchHits = new int[64];
    public static int[][] switchValues = new int[64][];
    public static int[] switchValueCount = new int[64];
    public static int[] touchedSwitches = new int[64];
    public static int touchedSwitchCount;

    public static int[] lineHits = new int[256];
    public static int[] touchedLines = new int[256];
    public static int touchedLineCount;

    public static int[] methodHits = new int[64];
    public static int[] touchedMethods = new int[64];
    public static int touchedMethodCount;

    /** Forgets everything recorded since the last reset. */
    public static void reset() {
        for (int i = 0; i < touchedBranchCount; i++) branchHits[touchedBranches[i]] = 0;
        for (int i = 0; i < touchedSwitchCount; i++) switchHits[touchedSwitches[i]] = 0;
        for (int i = 0; i < touchedLineCount; i++) lineHits[touchedLines[i]] = 0;
        for (int i = 0; i < touchedMethodCount; i++) methodHits[touchedMethods[i]] = 0;
        touchedBranchCount = 0;
        touchedSwitchCount = 0;
        touchedLineCount = 0;
        touchedMethodCount = 0;
    }

    /** Probe before {@code if_icmpXX}: the two int operands. */
    public static void cmpII(int a, int b, int id) {
        record(id, (double) ((long) a - (long) b), Integer.compare(a, b));
    }

    /** Probe before {@code ifXX} (compare with zero). */
    public static void cmpI(int a, int id) {
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

    private static void record(int id, double diff, int sign) {
        if (id >= branchHits.length) growBranches(id);
        if (branchHits[id]++ == 0) {
            if (touchedBranchCount == touchedBranches.length) touchedBranches = Arrays.copyOf(touchedBranches, touchedBranchCount * 2);
            touchedBranches[touchedBranchCount++] = id;
            branchLt[id] = 0;
            branchEq[id] = 0;
            branchGt[id] = 0;
            branchMinDiff[id] = Double.POSITIVE_INFINITY;
            branchMaxDiff[id] = Double.NEGATIVE_INFINITY;
            branchMinAbs[id] = Double.POSITIVE_INFINITY;
        }
        if (sign < 0) branchLt[id]++;
        else if (sign == 0) branchEq[id]++;
        else branchGt[id]++;
        if (diff < branchMinDiff[id]) branchMinDiff[id] = diff;
        if (diff > branchMaxDiff[id]) branchMaxDiff[id] = diff;
        double abs = Math.abs(diff);
        if (abs < branchMinAbs[id]) branchMinAbs[id] = abs;
    }

    /** Probe before {@code tableswitch}/{@code lookupswitch}: the key. */
    public static void switchValue(int value, int id) {
        if (id >= switchHits.length) growSwitches(id);
        if (switchHits[id]++ == 0) {
            if (touchedSwitchCount == touchedSwitches.length) touchedSwitches = Arrays.copyOf(touchedSwitches, touchedSwitchCount * 2);
            touchedSwitches[touchedSwitchCount++] = id;
            switchValueCount[id] = 0;
            if (switchValues[id] == null) switchValues[id] = new int[MAX_SWITCH_VALUES];
        }
        int[] values = switchValues[id];
        int n = switchValueCount[id];
        for (int i = 0; i < n; i++) if (values[i] == value) return;
        if (n < MAX_SWITCH_VALUES) {
            values[n] = value;
            switchValueCount[id] = n + 1;
        }
    }

    /** Probe at the first instruction of a source line. */
    public static void line(int id) {
        if (id >= lineHits.length) {
            lineHits = Arrays.copyOf(lineHits, Math.max(id + 1, lineHits.length * 2));
        }
        if (lineHits[id]++ == 0) {
            if (touchedLineCount == touchedLines.length) touchedLines = Arrays.copyOf(touchedLines, touchedLineCount * 2);
            touchedLines[touchedLineCount++] = id;
        }
    }

    /** Probe at method entry. */
    public static void method(int id) {
        if (id >= methodHits.length) {
            methodHits = Arrays.copyOf(methodHits, Math.max(id + 1, methodHits.length * 2));
        }
        if (methodHits[id]++ == 0) {
            if (touchedMethodCount == touchedMethods.length) touchedMethods = Arrays.copyOf(touchedMethods, touchedMethodCount * 2);
            touchedMethods[touchedMethodCount++] = id;
        }
    }

    private static void growBranches(int id) {
        int n = Math.max(id + 1, branchHits.length * 2);
        branchHits = Arrays.copyOf(branchHits, n);
        branchLt = Arrays.copyOf(branchLt, n);
        branchEq = Arrays.copyOf(branchEq, n);
        branchGt = Arrays.copyOf(branchGt, n);
        branchMinDiff = Arrays.copyOf(branchMinDiff, n);
        branchMaxDiff = Arrays.copyOf(branchMaxDiff, n);
        branchMinAbs = Arrays.copyOf(branchMinAbs, n);
    }

    private static void growSwitches(int id) {
        int n = Math.max(id + 1, switchHits.length * 2);
        switchHits = Arrays.copyOf(switchHits, n);
        switchValues = Arrays.copyOf(switchValues, n);
        switchValueCount = Arrays.copyOf(switchValueCount, n);
    }

    /**
     * All touched records in one array, read back by the worker with a single
     * JNI copy. Layout: {@code nBranches, (id, hits, lt, eq, gt, minDiff,
     * maxDiff, minAbs) * nBranches, nSwitches, (id, hits, nValues, values...)
     * * nSwitches, nLines, (id, hits) * nLines, nMethods, (id, hits) * nMethods}.
     */
    public static double[] export() {
        int size = 4 + touchedBranchCount * 8 + touchedLineCount * 2 + touchedMethodCount * 2;
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
        return r;
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
