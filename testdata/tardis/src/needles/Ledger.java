package needles;

/**
 * Exact arithmetic relations of several parameters: a product and a sum
 * that must hit a value the constructor shifts.
 */
public final class Ledger {
    private final int opening;

    public Ledger(int opening) {
        if (opening < 0 || opening > 1_000_000) {
            throw new IllegalArgumentException("opening from 0 to 1000000");
        }
        this.opening = opening;
    }

    /** 1 on the exact product (int arithmetic), 2 on the exact sum, -1 on a non-positive part, else 0. */
    public int settle(int a, int b, int c) {
        if (a <= 0 || b <= 0 || c <= 0) {
            return -1;
        }
        if (a > 1 && b > 1 && c > 1 && a * b * c == 1_234_567_891 + opening) {
            return 1;
        }
        if (a * 3 + b * 5 + c * 7 == 100_003 + opening && a > b && b > c) {
            return 2;
        }
        return 0;
    }
}
