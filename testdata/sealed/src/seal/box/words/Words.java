package seal.box.words;

/** The words {@link seal.box.Lock} knows; the word is built at run time by {@link Spelling}. */
public final class Words {
    private Words() {}

    public static boolean isOpen(String word) {
        return Spelling.reversed("emases-nepo").equals(word.trim());
    }
}
