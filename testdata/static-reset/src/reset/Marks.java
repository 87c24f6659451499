package reset;

/** Counters outside the reset scope (not instrumented), so the resets of Flaky and Stuck see their earlier runs. */
public class Marks {
    public static int flaky;
    public static int stuck;
    public static long spins;
}
