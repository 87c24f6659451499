package edge;

/**
 * Methods whose outcome depends on the JVM's heap and stack sizes: a test
 * that expects their OutOfMemoryError or StackOverflowError would pass or
 * fail with the machine, so none may be emitted.
 */
public class Abyss {
    /** Recurses without end for depth > 0 (StackOverflowError). */
    public static int fall(int depth) {
        if (depth <= 0) {
            return 0;
        }
        return 1 + fall(depth + 1);
    }

    /** Asks for a huge array for size > 1000 (OutOfMemoryError). */
    public static int hoard(int size) {
        if (size <= 1000) {
            return size;
        }
        long[][] blocks = new long[size][];
        for (int i = 0; i < size; i++) {
            blocks[i] = new long[1 << 24];
        }
        return blocks.length;
    }
}
