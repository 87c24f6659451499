package commit;

/**
 * Branches whose code can throw before JaCoCo's next probe
 * (crates/analysis/src/commit.rs): JaCoCo counts such a side only when the
 * code after it completes.
 */
public class Parse {
    /** Both sides of the conditional are on one line, with no probe between the jump and the join. */
    public static double parse(Object o, String s) {
        return o instanceof Number ? ((Number) o).doubleValue() : Double.parseDouble(s);
    }

    /** No branch: its root goal counts when the call returns. */
    public static int length(String s) { return s.length(); }
}
