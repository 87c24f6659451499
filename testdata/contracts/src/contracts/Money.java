package contracts;

/** An amount of a currency: equals, hashCode, toString and compareTo agree. */
public final class Money implements Comparable<Money> {
    private final long cents;
    private final String currency;

    public Money(long cents, String currency) {
        if (currency == null) {
            throw new NullPointerException("currency");
        }
        this.cents = cents;
        this.currency = currency;
    }

    public static Money euros(long cents) {
        return new Money(cents, "EUR");
    }

    public Money plus(Money other) {
        if (!currency.equals(other.currency)) {
            throw new IllegalArgumentException("currencies differ");
        }
        return new Money(cents + other.cents, currency);
    }

    public Money negate() {
        return new Money(-cents, currency);
    }

    public boolean isNegative() {
        return cents < 0;
    }

    public long cents() {
        return cents;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Money)) {
            return false;
        }
        Money other = (Money) o;
        return cents == other.cents && currency.equals(other.currency);
    }

    @Override
    public int hashCode() {
        return 31 * Long.hashCode(cents) + currency.hashCode();
    }

    @Override
    public int compareTo(Money o) {
        int c = currency.compareTo(o.currency);
        return c != 0 ? c : Long.compare(cents, o.cents);
    }

    @Override
    public String toString() {
        return currency + " " + cents;
    }
}
