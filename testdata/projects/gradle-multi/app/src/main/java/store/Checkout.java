package store;

import inventory.Stock;

/** Sells from a stock (a class of the other module). */
public class Checkout {
    private final Stock stock;
    private int sold;

    public Checkout(Stock stock) {
        this.stock = stock;
    }

    /** Sells one {@code item} when in stock. */
    public String sell(String item) {
        if (stock.take(item)) {
            sold++;
            return "sold " + item;
        }
        return "out of " + item;
    }

    /** Items sold so far. */
    public int sold() {
        return sold;
    }
}
