package modern;

import java.util.Objects;

/** A generic record whose compact constructor checks its components. */
public record Pair<A extends Comparable<A>, B>(A first, B second) {

    public Pair {
        Objects.requireNonNull(first, "first");
    }

    /** The pair with the smaller first component. */
    public static <T extends Comparable<T>, U> Pair<T, U> min(Pair<T, U> x, Pair<T, U> y) {
        return x.first().compareTo(y.first()) <= 0 ? x : y;
    }

    public boolean hasSecond() {
        return second != null;
    }

    public <C> Pair<A, C> withSecond(C value) {
        return new Pair<>(first, value);
    }
}
