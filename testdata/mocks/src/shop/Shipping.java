package shop;

/**
 * A carrier's shipping rates: an abstract class with no subclass on the class
 * path, so tests get Mockito mocks of it (issue 19). {@link #carrier} is final:
 * a mock runs its code, on a field no constructor set.
 */
public abstract class Shipping {
    private final String carrier;

    protected Shipping(String carrier) {
        this.carrier = carrier;
    }

    /** The shipping cost of an order of {@code total} cents, in cents. */
    public abstract long cost(long total);

    /** Whether the carrier delivers by the next day; not by default. */
    public boolean express() {
        return false;
    }

    /** The carrier's name. */
    public final String carrier() {
        return carrier;
    }
}
