package edge;

/**
 * A reader whose comparing happens in another class of the project
 * ({@link Commands}): the word it wants is computed at run time, so no
 * constant of either class names it and only the comparison seen in the
 * neighbour tells the search (generate.rs, neighbours).
 */
public class CommandReader {
    public static int run(String line) {
        if (line == null) {
            return -1;
        }
        if (Commands.isStop(line)) {
            return 1;
        }
        return 0;
    }
}
