package modern;

/** A record with a validating canonical constructor, a factory and an ordering. */
public record Money(long cents, String currency) implements Comparable<Money> {

    public Money {
        if (currency == null || currency.length() != 3) {
            throw new IllegalArgumentException("currency must have three letters: " + currency);
        }
        currency = currency.toUpperCase();
    }

    public static Money of(String amount, String currency) {
        int dot = amount.indexOf('.');
        if (dot < 0) {
            return new Money(Long.parseLong(amount) * 100, currency);
        }
        String fraction = amount.substring(dot + 1);
        if (fraction.length() > 2) {
            throw new IllegalArgumentException("more than two decimals: " + amount);
        }
        long whole = Long.parseLong(amount.substring(0, dot));
        long part = fraction.isEmpty() ? 0 : Long.parseLong(fraction) * (fraction.length() == 1 ? 10 : 1);
        return new Money(whole * 100 + (whole < 0 ? -part : part), currency);
    }

    public Money plus(Money other) {
        if (!currency.equals(other.currency)) {
            throw new IllegalArgumentException(currency + " and " + other.currency);
        }
        return new Money(Math.addExact(cents, other.cents), currency);
    }

    public boolean isNegative() {
        return cents < 0;
    }

    @Override
    public int compareTo(Money other) {
        int byCurrency = currency.compareTo(other.currency);
        return byCurrency != 0 ? byCurrency : Long.compare(cents, other.cents);
    }
}
