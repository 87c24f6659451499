package misuse;

/**
 * A generic class whose comparisons can throw ClassCastException only when
 * it is used against its type arguments (raw types): KAT reports no finding
 * for such a cast (crates/katcheck/tests/fixtures.rs).
 */
public class Ordered<T extends Comparable<T>> {
    private final T low;

    public Ordered(T low) {
        this.low = low;
    }

    /** Typed by the class's type variable. */
    public boolean above(T x) {
        return x.compareTo(low) > 0;
    }

    /** Typed by a type argument of a parameter's type. */
    public boolean aboveAll(java.util.List<? extends T> xs) {
        return xs.get(0).compareTo(low) > 0;
    }

    /** A collection of a given element type: parameterized. */
    public static int count(java.util.Collection<String> xs) {
        return xs.toArray(new String[0]).length;
    }

    /** Raw types: not generic, a cast failing here is the method's own. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    public static int compareRaw(Comparable a, Object b) {
        return a.compareTo(b);
    }
}
