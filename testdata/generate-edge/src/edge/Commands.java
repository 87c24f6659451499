package edge;

/** The commands {@link CommandReader} knows; the word is built at run time. */
final class Commands {
    private static final String STOP = new StringBuilder("erif-hctac-dna-tlah").reverse().toString();

    private Commands() {}

    static boolean isStop(String word) {
        return STOP.equals(word.trim());
    }
}
