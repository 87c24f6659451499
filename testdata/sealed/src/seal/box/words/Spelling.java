package seal.box.words;

/** Spells words; loads {@link Letters}, three references from {@link seal.box.Lock}: no neighbour, copied as it is. */
final class Spelling {
    private Spelling() {}

    static String reversed(String word) {
        return Letters.reverse(word);
    }
}
