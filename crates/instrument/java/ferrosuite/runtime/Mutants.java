package ferrosuite.runtime;

import java.lang.invoke.CallSite;
import java.lang.invoke.ConstantCallSite;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import java.util.List;

/**
 * The mutant schema of ferrosuite-instrumented classes
 * ({@code Instrumenter::instrument_mutants}).
 *
 * A class instrumented with its mutants carries all of them at once: each
 * mutated instruction is replaced by a call of a helper below with the same
 * stack effect plus an int argument {@code base}, the id of the site's first
 * mutant. Site mutants have the ids {@code base, base + 1, ...}, one per
 * replacement, in the order documented per helper (the instrumenter hands
 * out the ids and describes each mutant in the same order). The helper
 * behaves like the original instruction unless {@link #active} is one of the
 * site's ids, so no class is reloaded per mutant.
 *
 * Operators (EvoSuite's):
 * - replace arithmetic operator (AOR): {@code xadd/xsub/xmul/xdiv/xrem} for
 *   int, long, float and double; replacements: the four other operators in
 *   the order {@code + - * / %}. Integer division by zero throws
 *   {@link ArithmeticException} as the JVM does (message "/ by zero", stack
 *   trace starting in the mutated method).
 * - replace comparison operator (ROR) and negate condition: a conditional
 *   jump {@code if_icmpXX L} / {@code ifXX L} becomes
 *   {@code <push base> invokestatic Mutants.icmpXX / ifXX; ifne L}; the helper
 *   returns whether the (possibly mutated) condition holds. Replacements: the
 *   relations {@code == != < >= > <=}, then "true" and "false", without the
 *   original (the negation among them is the negate-condition mutant).
 *   Reference compares ({@code if_acmpXX}, {@code ifnull}, {@code ifnonnull})
 *   and {@code ifeq}/{@code ifne} testing a boolean ({@link #zifeq},
 *   {@link #zifne}) have three: the negation, "true", "false".
 * - replace constant: {@code xconst(value, base)} after the original push;
 *   replacements {@code 0, 1, -1, value + 1, value - 1} without the original
 *   value and without repeats (floats compared by their bits, NaN as one
 *   value). {@link #zconst} for a boolean constant has one: the other boolean.
 * - remove call: a call of a void method becomes an {@code invokedynamic}
 *   bootstrapped by {@link #removeCall}, which calls the original method
 *   unless its mutant is active. One difference remains with no mutant
 *   active: a null receiver's {@link NullPointerException} has no
 *   "helpful" message (JDK 14+ computes it from the caller's bytecode at
 *   the failing {@code invokevirtual}, which is gone).
 *
 * {@code active} is a plain static field: the executor sets it between
 * tests, never while a test runs.
 */
public final class Mutants {
    private Mutants() {}

    /** The active mutant; 0 (no mutant id) runs the original behaviour. */
    public static int active;

    static final int ADD = 0, SUB = 1, MUL = 2, DIV = 3, REM = 4;
    static final int EQ = 0, NE = 1, LT = 2, GE = 3, GT = 4, LE = 5, TRUE = 6, FALSE = 7;

    /** The k-th (from 0) of the codes 0, 1, 2, ... other than {@code original}. */
    private static int other(int original, int k) {
        return k < original ? k : k + 1;
    }

    /** The operator a site with {@code original} and {@code n} replacements applies. */
    private static int op(int original, int n, int base) {
        int k = active - base;
        return k >= 0 && k < n ? other(original, k) : original;
    }

    // ------------------------------------------------------------ arithmetic

    /**
     * The exception of an integer division by zero, as the JVM makes it in
     * the method that divides: message "/ by zero" (also after the JIT
     * compiled the helper, where the JVM would throw a preallocated
     * exception without message) and no frame of this class.
     */
    private static ArithmeticException divisionByZero() {
        ArithmeticException e = new ArithmeticException("/ by zero");
        StackTraceElement[] trace = e.getStackTrace();
        int skip = 0;
        while (skip < trace.length && trace[skip].getClassName().equals(Mutants.class.getName())) skip++;
        e.setStackTrace(Arrays.copyOfRange(trace, skip, trace.length));
        return e;
    }

    private static int ia(int op, int a, int b) {
        switch (op) {
            case ADD: return a + b;
            case SUB: return a - b;
            case MUL: return a * b;
            case DIV:
                if (b == 0) throw divisionByZero();
                return a / b;
            default:
                if (b == 0) throw divisionByZero();
                return a % b;
        }
    }

    private static long la(int op, long a, long b) {
        switch (op) {
            case ADD: return a + b;
            case SUB: return a - b;
            case MUL: return a * b;
            case DIV:
                if (b == 0) throw divisionByZero();
                return a / b;
            default:
                if (b == 0) throw divisionByZero();
                return a % b;
        }
    }

    private static float fa(int op, float a, float b) {
        switch (op) {
            case ADD: return a + b;
            case SUB: return a - b;
            case MUL: return a * b;
            case DIV: return a / b;
            default: return a % b;
        }
    }

    private static double da(int op, double a, double b) {
        switch (op) {
            case ADD: return a + b;
            case SUB: return a - b;
            case MUL: return a * b;
            case DIV: return a / b;
            default: return a % b;
        }
    }

    public static int iadd(int a, int b, int base) { return ia(op(ADD, 4, base), a, b); }
    public static int isub(int a, int b, int base) { return ia(op(SUB, 4, base), a, b); }
    public static int imul(int a, int b, int base) { return ia(op(MUL, 4, base), a, b); }
    public static int idiv(int a, int b, int base) { return ia(op(DIV, 4, base), a, b); }
    public static int irem(int a, int b, int base) { return ia(op(REM, 4, base), a, b); }

    public static long ladd(long a, long b, int base) { return la(op(ADD, 4, base), a, b); }
    public static long lsub(long a, long b, int base) { return la(op(SUB, 4, base), a, b); }
    public static long lmul(long a, long b, int base) { return la(op(MUL, 4, base), a, b); }
    public static long ldiv(long a, long b, int base) { return la(op(DIV, 4, base), a, b); }
    public static long lrem(long a, long b, int base) { return la(op(REM, 4, base), a, b); }

    public static float fadd(float a, float b, int base) { return fa(op(ADD, 4, base), a, b); }
    public static float fsub(float a, float b, int base) { return fa(op(SUB, 4, base), a, b); }
    public static float fmul(float a, float b, int base) { return fa(op(MUL, 4, base), a, b); }
    public static float fdiv(float a, float b, int base) { return fa(op(DIV, 4, base), a, b); }
    public static float frem(float a, float b, int base) { return fa(op(REM, 4, base), a, b); }

    public static double dadd(double a, double b, int base) { return da(op(ADD, 4, base), a, b); }
    public static double dsub(double a, double b, int base) { return da(op(SUB, 4, base), a, b); }
    public static double dmul(double a, double b, int base) { return da(op(MUL, 4, base), a, b); }
    public static double ddiv(double a, double b, int base) { return da(op(DIV, 4, base), a, b); }
    public static double drem(double a, double b, int base) { return da(op(REM, 4, base), a, b); }

    // ----------------------------------------------------------- comparisons

    /** Whether relation {@code rel} holds for operands comparing as {@code c} (sign). */
    private static boolean holds(int rel, int c) {
        switch (rel) {
            case EQ: return c == 0;
            case NE: return c != 0;
            case LT: return c < 0;
            case GE: return c >= 0;
            case GT: return c > 0;
            case LE: return c <= 0;
            case TRUE: return true;
            default: return false;
        }
    }

    public static boolean icmpeq(int a, int b, int base) { return holds(op(EQ, 7, base), Integer.compare(a, b)); }
    public static boolean icmpne(int a, int b, int base) { return holds(op(NE, 7, base), Integer.compare(a, b)); }
    public static boolean icmplt(int a, int b, int base) { return holds(op(LT, 7, base), Integer.compare(a, b)); }
    public static boolean icmpge(int a, int b, int base) { return holds(op(GE, 7, base), Integer.compare(a, b)); }
    public static boolean icmpgt(int a, int b, int base) { return holds(op(GT, 7, base), Integer.compare(a, b)); }
    public static boolean icmple(int a, int b, int base) { return holds(op(LE, 7, base), Integer.compare(a, b)); }

    public static boolean ifeq(int a, int base) { return holds(op(EQ, 7, base), Integer.compare(a, 0)); }
    public static boolean ifne(int a, int base) { return holds(op(NE, 7, base), Integer.compare(a, 0)); }
    public static boolean iflt(int a, int base) { return holds(op(LT, 7, base), Integer.compare(a, 0)); }
    public static boolean ifge(int a, int base) { return holds(op(GE, 7, base), Integer.compare(a, 0)); }
    public static boolean ifgt(int a, int base) { return holds(op(GT, 7, base), Integer.compare(a, 0)); }
    public static boolean ifle(int a, int base) { return holds(op(LE, 7, base), Integer.compare(a, 0)); }

    /** A two-way condition {@code holds}, or its negation, "true", "false". */
    private static boolean ref(boolean holds, int base) {
        switch (active - base) {
            case 0: return !holds;
            case 1: return true;
            case 2: return false;
            default: return holds;
        }
    }

    public static boolean acmpeq(Object a, Object b, int base) { return ref(a == b, base); }
    public static boolean acmpne(Object a, Object b, int base) { return ref(a != b, base); }
    public static boolean ifnull(Object a, int base) { return ref(a == null, base); }
    public static boolean ifnonnull(Object a, int base) { return ref(a != null, base); }

    /** {@code ifeq} testing a boolean: the negation, "true", "false". */
    public static boolean zifeq(int a, int base) { return ref(a == 0, base); }
    /** {@code ifne} testing a boolean: the negation, "true", "false". */
    public static boolean zifne(int a, int base) { return ref(a != 0, base); }

    // ------------------------------------------------------------- constants

    /** Candidate {@code i} (0..4) of an integral constant {@code v}: 0, 1, -1, v + 1, v - 1 (int arithmetic when {@code narrow}). */
    private static long candidate(long v, int i, boolean narrow) {
        long c;
        switch (i) {
            case 0: c = 0; break;
            case 1: c = 1; break;
            case 2: c = -1; break;
            case 3: c = v + 1; break;
            default: c = v - 1; break;
        }
        return narrow ? (int) c : c;
    }

    /** The k-th replacement of an integral constant, {@code value} when there is none. */
    private static long integral(long value, int k, boolean narrow) {
        int n = 0;
        for (int i = 0; i < 5; i++) {
            long c = candidate(value, i, narrow);
            boolean repeat = c == value;
            for (int j = 0; j < i && !repeat; j++) repeat = candidate(value, j, narrow) == c;
            if (!repeat && n++ == k) return c;
        }
        return value;
    }

    /** Candidate {@code i} (0..4) of a float constant, as {@link #candidate}. */
    private static float fcandidate(float v, int i) {
        switch (i) {
            case 0: return 0f;
            case 1: return 1f;
            case 2: return -1f;
            case 3: return v + 1f;
            default: return v - 1f;
        }
    }

    /** Candidate {@code i} (0..4) of a double constant, as {@link #candidate}. */
    private static double dcandidate(double v, int i) {
        switch (i) {
            case 0: return 0d;
            case 1: return 1d;
            case 2: return -1d;
            case 3: return v + 1d;
            default: return v - 1d;
        }
    }

    public static int iconst(int value, int base) {
        int k = active - base;
        return k >= 0 && k < 5 ? (int) integral(value, k, true) : value;
    }

    public static long lconst(long value, int base) {
        int k = active - base;
        return k >= 0 && k < 5 ? integral(value, k, false) : value;
    }

    public static float fconst(float value, int base) {
        int k = active - base;
        if (k < 0 || k >= 5) return value;
        int n = 0;
        for (int i = 0; i < 5; i++) {
            int c = Float.floatToIntBits(fcandidate(value, i));
            boolean repeat = c == Float.floatToIntBits(value);
            for (int j = 0; j < i && !repeat; j++) repeat = Float.floatToIntBits(fcandidate(value, j)) == c;
            if (!repeat && n++ == k) return fcandidate(value, i);
        }
        return value;
    }

    public static double dconst(double value, int base) {
        int k = active - base;
        if (k < 0 || k >= 5) return value;
        int n = 0;
        for (int i = 0; i < 5; i++) {
            long c = Double.doubleToLongBits(dcandidate(value, i));
            boolean repeat = c == Double.doubleToLongBits(value);
            for (int j = 0; j < i && !repeat; j++) repeat = Double.doubleToLongBits(dcandidate(value, j)) == c;
            if (!repeat && n++ == k) return dcandidate(value, i);
        }
        return value;
    }

    /** A boolean constant (0 or 1) where only its truth matters: one replacement, the other value. */
    public static int zconst(int value, int base) {
        return active == base ? value ^ 1 : value;
    }

    // ----------------------------------------------------------- remove call

    /**
     * Bootstrap of a removable call of a void method: the call site calls
     * {@code target} (the original method, resolved in the caller's context
     * like the original call) unless mutant {@code id} is active, and then
     * does nothing. {@code type} is the original call's stack effect
     * (receiver first for instance methods).
     */
    public static CallSite removeCall(
            MethodHandles.Lookup caller, String name, MethodType type, MethodHandle target, int id)
            throws ReflectiveOperationException {
        MethodHandles.Lookup own = MethodHandles.lookup();
        MethodHandle notActive = MethodHandles.insertArguments(
                own.findStatic(Mutants.class, "notActive", MethodType.methodType(boolean.class, int.class)), 0, id);
        MethodHandle nothing = own.findStatic(Mutants.class, "nothing", MethodType.methodType(void.class));
        List<Class<?>> parameters = type.parameterList();
        return new ConstantCallSite(MethodHandles.guardWithTest(
                MethodHandles.dropArguments(notActive, 0, parameters),
                target.asType(type),
                MethodHandles.dropArguments(nothing, 0, parameters)));
    }

    private static boolean notActive(int id) {
        return active != id;
    }

    private static void nothing() {}
}
