package contracts;

/** A half-open interval of ints, [lo, hi). */
public final class Interval {
    private final int lo;
    private final int hi;

    public Interval(int lo, int hi) {
        this.lo = lo;
        this.hi = hi;
    }

    public boolean isEmpty() {
        return hi <= lo;
    }

    public int length() {
        return isEmpty() ? 0 : hi - lo;
    }

    public boolean contains(int x) {
        return lo <= x && x < hi;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Interval)) {
            return false;
        }
        Interval other = (Interval) o;
        // Bug: overlap, not equality; an empty interval overlaps nothing, not even itself.
        return lo < other.hi && other.lo < hi;
    }

    @Override
    public int hashCode() {
        return 17;
    }
}
