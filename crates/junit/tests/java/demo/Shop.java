package demo;

/** Takes an interface nothing implements: its tests mock it. */
public class Shop {
    /** Stock of a shop. */
    public interface Stock {
        boolean isOpen();

        long count(String item, int shelf);

        String name();
    }

    public static String describe(Stock stock) {
        if (!stock.isOpen()) {
            return "closed";
        }
        return stock.name() + ": " + stock.count("apple", 1);
    }
}
