package edge;

/** Behaviour that depends on the JDK that runs it: an assertion on it must not be emitted. */
public class Version {
    public static int feature() {
        return Runtime.version().feature();
    }

    public static int twice(int n) {
        return 2 * n;
    }
}
