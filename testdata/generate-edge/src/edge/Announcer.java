package edge;

/**
 * A static initialiser with effects beyond the class's own static fields:
 * it sets a system property and changes another class's static field.
 */
public class Announcer {
    private static final String GREETING;

    static {
        System.setProperty("edge.announced", "yes");
        Board.notice = "announced";
        GREETING = "hello";
    }

    public static String greet(String name) {
        return GREETING + ", " + name;
    }
}
