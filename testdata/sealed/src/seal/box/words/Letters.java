package seal.box.words;

/** Reverses letters; too far from {@link seal.box.Lock} to be a neighbour, so the workers load it uninstrumented. */
final class Letters {
    private Letters() {}

    static String reverse(String word) {
        return new StringBuilder(word).reverse().toString();
    }
}
