package reset;

/** A static initialiser that ends the first time and loops forever when it runs again (its reset). */
public class Stuck {
    private static int calls;

    static {
        if (Marks.stuck++ > 0) {
            while (true) {
                Marks.spins++;
            }
        }
    }

    public static int call() {
        return ++calls;
    }
}
