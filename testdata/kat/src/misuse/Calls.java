package misuse;

import java.util.Iterator;
import java.util.List;
import java.util.Objects;

/**
 * Calls of documented JDK methods, each once unguarded (a potential API
 * misuse KAT must find) and once guarded (safe: no finding). Fixture of the
 * KAT static check (crates/katcheck/tests/fixtures.rs).
 */
public class Calls {
    /** T2: String.charAt with an unchecked index. */
    public static char charAt(String s, int i) {
        return s.charAt(i);
    }

    /** T2: the index checked against 0 and the length first. */
    public static char charAtGuarded(String s, int i) {
        if (i >= 0 && i < s.length()) {
            return s.charAt(i);
        }
        return '?';
    }

    /** T3: Iterator.next without hasNext. */
    public static Object first(List<Object> xs) {
        return xs.iterator().next();
    }

    /** T3: hasNext checked first. */
    public static Object firstGuarded(List<Object> xs) {
        Iterator<Object> it = xs.iterator();
        if (it.hasNext()) {
            return it.next();
        }
        return null;
    }

    /** T4: Integer.parseInt on unchecked input. */
    public static int number(String s) {
        return Integer.parseInt(s);
    }

    /** T4: the NumberFormatException is handled. */
    public static int numberGuarded(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** T1: a parameter reaching Objects.requireNonNull. */
    public static Object need(Object o) {
        return Objects.requireNonNull(o);
    }

    /** T1: null handled before. */
    public static Object needGuarded(Object o) {
        if (o == null) {
            return "none";
        }
        return Objects.requireNonNull(o);
    }

    /** T2: substring with a bound from a parameter. */
    public static String tail(String s, int from) {
        return s.substring(from);
    }

    /** T2: the bound checked first (the early return form). */
    public static String tailGuarded(String s, int from) {
        if (from < 0 || from > s.length()) {
            return s;
        }
        return s.substring(from);
    }

    /** T2: a constant index on a constant string: always out of range. */
    public static char alwaysOut() {
        return "abc".charAt(3);
    }

    /** T2: a loop over the string's indices. */
    public static int loop(String s) {
        int sum = 0;
        for (int i = 0; i < s.length(); i++) {
            sum += s.charAt(i);
        }
        return sum;
    }

    /** T2: the switch on the length guards the indices. */
    public static boolean yes(String s) {
        switch (s.length()) {
            case 1:
                return s.charAt(0) == 'y';
            case 3:
                return s.charAt(0) == 'y' && s.charAt(2) == 's';
            default:
                return false;
        }
    }

    /** T2: the default side of the switch does not. */
    public static char other(String s) {
        switch (s.length()) {
            case 0:
                return '-';
            default:
                return s.charAt(1);
        }
    }
}
