package edge;

/** A class that calls System.exit in every method. */
public class Quitter {
    public static void quit(int code) {
        if (code > 0) {
            System.exit(code);
        }
        System.exit(0);
    }

    public int halt() {
        Runtime.getRuntime().halt(3);
        return 1;
    }
}
