package shop;

/**
 * A class whose methods take only interfaces and abstract classes that nothing
 * on the class path implements: its branches are reached through mocks (issue 19).
 */
public class Checkout {
    /** What the inventory holds, in words. */
    public String summary(Inventory inventory) {
        if (!inventory.isOpen()) {
            return "closed";
        }
        int n = inventory.count();
        if (n == 0) {
            return "empty";
        }
        if (n > 100) {
            return "warehouse";
        }
        String first = inventory.item(0);
        if (first == null) {
            return "unnamed";
        }
        if (first.isEmpty()) {
            return "blank";
        }
        return n + " items, first " + first;
    }

    /** The total for {@code quantity} of {@code item}, in cents. */
    public long total(Pricing pricing, String item, int quantity) {
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity " + quantity);
        }
        long price = pricing.price(item);
        if (price < 0) {
            throw new IllegalStateException("negative price " + price);
        }
        long total = price * quantity;
        int discount = pricing.discount();
        if (discount > 100) {
            throw new IllegalStateException("discount " + discount);
        }
        if (discount > 0) {
            total = total * (100 - discount) / 100;
        }
        if (!pricing.taxIncluded()) {
            total = total * 119 / 100;
        }
        return total;
    }

    /** How an order of {@code total} cents ships, in words. */
    public String delivery(Shipping shipping, long total) {
        long cost = shipping.cost(total);
        if (cost < 0) {
            throw new IllegalStateException("negative cost " + cost);
        }
        if (cost == 0) {
            return "free";
        }
        if (shipping.express()) {
            return "express for " + cost;
        }
        return shipping.carrier() + " for " + cost;
    }
}
