package edge;

import java.util.ArrayList;
import java.util.List;

/**
 * Static state that tests change: a counter, a final list the static
 * initialiser fills and methods add to, and a nested holder with a counter
 * of its own. On a fresh class {@code pass("a")} returns 1, and then
 * {@code logSize()} is 2 and {@code holderUses()} is 1.
 */
public class Turnstile {
    private static int passes;
    private static final List<String> LOG = new ArrayList<>();

    static {
        LOG.add("opened");
    }

    /** Counts one more pass; returns the count so far. */
    public static int pass(String who) {
        passes++;
        LOG.add(who);
        Holder.uses++;
        return passes;
    }

    /** Entries of the log, the initialiser's included. */
    public static int logSize() {
        return LOG.size();
    }

    /** Passes counted by the nested holder. */
    public static int holderUses() {
        return Holder.uses;
    }

    /** "fresh" until the first pass. */
    public static String state() {
        if (passes == 0) {
            return "fresh";
        }
        return "used";
    }

    static class Holder {
        static int uses;
        static final Turnstile DEFAULT = new Turnstile();
    }
}
