package edge;

/** Uses another top-level class of the jar (Counter), which is not instrumented with it. */
public class Tally {
    public static String judge(Counter counter) {
        if (counter.get() > 10) {
            return "many";
        }
        return "few";
    }
}
