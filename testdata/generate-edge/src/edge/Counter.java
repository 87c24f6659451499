package edge;

/** A small stateful class for the reproducibility test. */
public class Counter {
    private int count;

    public void add(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("negative: " + n);
        }
        count += n;
    }

    public boolean isBig() {
        return count > 100;
    }

    public int get() {
        return count;
    }
}
