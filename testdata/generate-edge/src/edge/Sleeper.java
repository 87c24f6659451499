package edge;

/**
 * Every call sleeps about a second: the emitted tests are slow, yet the run
 * of the class (search, post-processing, verification) must end within 1.25
 * times its budget.
 */
public class Sleeper {
    private int naps;

    /** Sleeps a second, then counts the nap: once for a positive length, twice otherwise. */
    public int nap(int length) throws InterruptedException {
        Thread.sleep(1000);
        if (length > 0) {
            naps++;
        } else {
            naps += 2;
        }
        return naps;
    }

    public int naps() {
        return naps;
    }
}
