package shop;

/** Stock of a shop: an interface with no implementation on the class path. */
public interface Inventory {
    /** Whether the shop is open. */
    boolean isOpen();

    /** How many items are in stock. */
    int count();

    /** The name of the item at {@code index}. */
    String item(int index);
}
