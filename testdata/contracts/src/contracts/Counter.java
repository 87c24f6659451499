package contracts;

/** A counter that keeps Object's equals, hashCode and toString. */
public class Counter {
    private int count;

    public void add(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("negative");
        }
        count += n;
    }

    public int get() {
        return count;
    }

    public boolean isZero() {
        return count == 0;
    }
}
