package numbers;

/** Compiled with BrokenComplexTest but left off the class path when it runs (a test that does not link). */
public final class Helper {
    private Helper() {}

    public static Complex one() {
        return new Complex(1, 0);
    }
}
