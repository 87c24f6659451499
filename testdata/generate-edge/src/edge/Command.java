package edge;

/**
 * Branches that need strings built at run time (not in the constant pool),
 * compared with startsWith, endsWith and equalsIgnoreCase: only dynamic
 * seeding from those comparisons finds them.
 */
public class Command {
    private final String prefix = new StringBuilder("--").append("run").reverse().reverse().toString() + "=";
    private final String suffix = String.valueOf(new char[] {'.', 'c', 'f', 'g'});
    private final String word = new StringBuilder("PLEH").reverse().toString();

    public int kind(String arg) {
        if (arg.startsWith(prefix)) {
            return 1;
        }
        if (arg.endsWith(suffix)) {
            return 2;
        }
        if (arg.equalsIgnoreCase(word)) {
            return 3;
        }
        return 0;
    }
}
