package rogue;

/** Ends the JVM while it is initialised. */
public class Doomed {
    static {
        if (Boolean.parseBoolean("true")) System.exit(3);
    }

    public static int answer() {
        return 42;
    }
}
