package reset;

/** A static counter and no static initialiser: the instrumented copy gets one, to be told when the class is ready. */
public class Plain {
    static final int LIMIT = 3;
    static int count;

    public static int next() {
        return count < LIMIT ? ++count : count;
    }
}
