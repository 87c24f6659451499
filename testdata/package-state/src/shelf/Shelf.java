package shelf;

/** Package state that any caller can replace: a default label. */
public final class Shelf {
    private static String label = "plain";

    private Shelf() {}

    public static void setLabel(String l) {
        label = l;
    }

    public static String label() {
        return label;
    }
}
