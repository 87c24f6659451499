package edge;

/** A public static field that another class's initialiser writes. */
public class Board {
    public static String notice;
}
