package edge;

/** Reads the public fields of {@link Link}s: a test reaches its branches only by writing them. */
public class Chain {
    public static String describe(Link link) {
        if (link.next == null) {
            return "last";
        }
        if (link.next.weight > 10) {
            return "heavy next";
        }
        return "light next";
    }
}
