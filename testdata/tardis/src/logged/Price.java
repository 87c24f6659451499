package logged;

/** A price: a class of the class path that is not instrumented, read by its field. */
public final class Price {
    public final int cents;

    public Price(int cents) {
        this.cents = cents;
    }
}
