package edge;

/**
 * A static ledger: what a call answers depends on the calls made before it
 * in the same JVM, so an emitted test that asserts on it would pass or fail
 * with the order of the tests. Its state is a final array the calls change
 * in place, which the emitted suite's restore of the static fields the class
 * assigns does not reach: verification must catch every such test.
 */
public class Ledger {
    /** Positive amounts recorded, and 1 once the ledger is open. */
    private static final int[] STATE = new int[2];

    /** Records an amount: counts it when positive, opens the ledger either way. */
    public static int record(int amount) {
        STATE[1] = 1;
        if (amount > 0) {
            STATE[0]++;
        }
        return STATE[0];
    }

    /** Whether any amount was recorded in this JVM. */
    public static boolean isOpen() {
        return STATE[1] == 1;
    }

    /** How many positive amounts were recorded in this JVM. */
    public static int size() {
        return STATE[0];
    }

    /** Whether nothing positive was recorded yet. */
    public static boolean isEmpty() {
        return STATE[0] == 0;
    }
}
