package seal.box;

import seal.box.words.Words;

/**
 * A lock whose word is compared in {@link Words}, a class of another
 * sealed package of the jar (generate.rs, neighbours in sealed packages):
 * the word is built at run time, so only the comparison seen in the
 * neighbour tells the search, and the neighbour's package must come from
 * one place in the workers (its other classes are copied beside it).
 */
public class Lock {
    public static int open(String word) {
        if (word == null) {
            return -1;
        }
        if (Words.isOpen(word)) {
            return 1;
        }
        return 0;
    }
}
