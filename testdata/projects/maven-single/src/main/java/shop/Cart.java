package shop;

import java.util.ArrayList;
import java.util.List;

/** A shopping cart: items with prices in cents, a discount above a total. */
public class Cart {
    private final List<Integer> prices = new ArrayList<>();

    /** Adds an item; a price must be positive. */
    public void add(int cents) {
        if (cents <= 0) {
            throw new IllegalArgumentException("price must be positive: " + cents);
        }
        prices.add(cents);
    }

    /** The total, 10% off above 100.00. */
    public int total() {
        int sum = 0;
        for (int p : prices) {
            sum += p;
        }
        return sum > 10_000 ? sum - sum / 10 : sum;
    }

    /** How many items. */
    public int size() {
        return prices.size();
    }
}
