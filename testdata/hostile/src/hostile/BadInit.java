package hostile;

/** A class whose static initialiser throws. */
public class BadInit {
    static final int VALUE = compute();

    private static int compute() {
        if (System.nanoTime() != 0) {
            throw new IllegalStateException("static initialiser failed");
        }
        return 1;
    }

    public static int value() {
        return VALUE;
    }
}
