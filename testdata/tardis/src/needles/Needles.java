package needles;

/**
 * Needles for dynamic symbolic execution: branches whose conditions give a
 * search no gradient (an exact relation of several inputs, a flag set in a
 * loop over an array behind checks that make many alternatives infeasible,
 * long and double arithmetic through a conversion). Each method returns 1
 * on its needle.
 */
public final class Needles {
    private Needles() {}

    /** An exact relation of three parameters. */
    public static int exact(int a, int b, int c) {
        if (a * 31 + b * 17 - c == 123456) {
            if (c > 1000) {
                return 1;
            }
            return 2;
        }
        return 0;
    }

    /** A flag set inside a loop over an array whose length and values are checked first. */
    public static int flag(int[] values) {
        if (values.length < 4 || values.length > 8) {
            return -1;
        }
        for (int i = 0; i < values.length; i++) {
            if (values[i] < 0 || values[i] > 100) {
                return -1;
            }
        }
        boolean seen = false;
        for (int i = 0; i < values.length; i++) {
            if (values[i] == 77) {
                seen = true;
            }
        }
        if (seen) {
            return 1;
        }
        return 0;
    }

    /** Long and double arithmetic with a conversion. */
    public static int mixed(long x, double d) {
        if (x * x == 1522756L && x < 0) {
            if ((int) (d * 3.0) == 10 && d < 3.4) {
                return 1;
            }
        }
        return 0;
    }
}
