package edge;

/**
 * A class with a branch no input reaches (`y % 2 == 1` for an even `y`):
 * the search must go on until its budget while that goal remains, not stop
 * early (generate.rs, the search-budget test).
 */
public class Stubborn {
    public static int sign(int x) {
        if (x > 0) {
            return 1;
        }
        if (x < 0) {
            return -1;
        }
        return 0;
    }

    public static String parity(int x) {
        int y = x * 2;
        if (y % 2 == 1) {
            return "odd";
        }
        return "even";
    }
}
