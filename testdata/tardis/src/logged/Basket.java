package logged;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * A needle behind calls into the JDK that the concolic replay does not
 * model: a list's methods, its copy constructor, a sort whose comparator
 * calls back into this class, string concatenation ({@code invokedynamic}),
 * and a field of a class that is not instrumented ({@link Price}). The
 * replay goes past them only with the values the JVM logged.
 */
public class Basket {
    private final List<String> names = new ArrayList<>();
    private int total;
    private int count;
    private Price last = new Price(0);

    /** Adds an item; a name already in the basket is ignored. */
    public void put(String name, int price) {
        if (names.contains(name)) {
            return;
        }
        names.add(name);
        total += price;
        count++;
        last = new Price(price);
    }

    /** 1 when the basket holds three items and their total matches {@code code}. */
    public int audit(int code) {
        List<String> sorted = new ArrayList<>(names);
        Collections.sort(sorted, new ByLength());
        String first = sorted.isEmpty() ? "" : sorted.get(0);
        String label = first + "#" + count;
        if (label.length() > 40 || last.cents < 0) {
            return -1;
        }
        if (count == 3 && (total ^ code) == 0x5a5a) {
            return 1;
        }
        return 0;
    }

    /** Shorter names first. */
    static final class ByLength implements Comparator<String> {
        @Override
        public int compare(String a, String b) {
            return Integer.compare(a.length(), b.length());
        }
    }
}
