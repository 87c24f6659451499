package edge;

/**
 * A static ledger: what a call answers depends on the calls made before it
 * in the same JVM, so an emitted test that asserts on it would pass or fail
 * with the order of the tests. Verification must catch every such test.
 */
public class Ledger {
    private static int entries;
    private static boolean opened;

    /** Records an amount: counts it when positive, opens the ledger either way. */
    public static int record(int amount) {
        opened = true;
        if (amount > 0) {
            entries++;
        }
        return entries;
    }

    /** Whether any amount was recorded in this JVM. */
    public static boolean isOpen() {
        return opened;
    }

    /** How many positive amounts were recorded in this JVM. */
    public static int size() {
        return entries;
    }

    /** Whether nothing positive was recorded yet. */
    public static boolean isEmpty() {
        return entries == 0;
    }
}
