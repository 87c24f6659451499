package inventory;

import java.util.HashMap;
import java.util.Map;

/** Items in stock, by name. */
public class Stock {
    private final Map<String, Integer> counts = new HashMap<>();

    /** Puts {@code n} more of {@code item} in stock. */
    public void put(String item, int n) {
        if (n <= 0) {
            throw new IllegalArgumentException("n must be positive");
        }
        counts.merge(item, n, Integer::sum);
    }

    /** Takes one; false when there is none. */
    public boolean take(String item) {
        Integer n = counts.get(item);
        if (n == null || n == 0) {
            return false;
        }
        counts.put(item, n - 1);
        return true;
    }

    /** How many of {@code item} are in stock. */
    public int count(String item) {
        return counts.getOrDefault(item, 0);
    }
}
