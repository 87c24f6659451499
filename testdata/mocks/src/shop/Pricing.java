package shop;

/** Prices and discounts: an interface with no implementation on the class path. */
public interface Pricing {
    /** The price of {@code item}, in cents. */
    long price(String item);

    /** The discount, from 0 (none) to 100 (free), in percent. */
    int discount();

    /** Whether prices include tax. */
    boolean taxIncluded();
}
