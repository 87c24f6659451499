package reset;

/** A static initialiser that succeeds once and throws when it runs again (its reset). */
public class Flaky {
    private static int runs;
    private static final String STATE;

    static {
        if (Marks.flaky++ > 0) {
            throw new IllegalStateException("initialised twice");
        }
        STATE = "ready";
    }

    public static String state() {
        runs++;
        return STATE + runs;
    }
}
