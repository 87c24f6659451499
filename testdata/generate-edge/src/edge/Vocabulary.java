package edge;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * Words looked up in a set and in a sorted table, both built at run time
 * (generate.rs, collection lookups): no constant names the words and no
 * {@code equals} compares them, so only the elements a missed lookup saw
 * tell the search.
 */
public class Vocabulary {
    private static final String[] NOUNS = sorted(reverse("nrettap"), reverse("elbat"), reverse("noitcnuj"));
    private final Set<String> verbs = new HashSet<>();

    public Vocabulary() {
        verbs.add(reverse("etaerc"));
        verbs.add(reverse("etelpmoc"));
    }

    private static String reverse(String s) {
        return new StringBuilder(s).reverse().toString();
    }

    private static String[] sorted(String... words) {
        Arrays.sort(words);
        return words;
    }

    /** 1 for a verb, 2 for a noun, 0 for an unknown word. */
    public int kind(String word) {
        if (verbs.contains(word)) {
            return 1;
        }
        if (Arrays.binarySearch(NOUNS, word) >= 0) {
            return 2;
        }
        return 0;
    }
}
