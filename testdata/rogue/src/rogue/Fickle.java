package rogue;

import java.util.Random;
import java.util.UUID;

/** Depends on the clock, random numbers and identity hash codes. */
public class Fickle {
    private final long born = System.currentTimeMillis();
    private final int id = System.identityHashCode(this);

    /** Milliseconds since this object was made. */
    public long age() {
        return System.currentTimeMillis() - born;
    }

    /** A random number below `bound`. */
    public int roll(int bound) {
        return new Random().nextInt(Math.max(bound, 1));
    }

    /** A random UUID. */
    public String ticket() {
        return UUID.randomUUID().toString();
    }

    /** A branch on the identity hash. */
    public String parity() {
        return id % 2 == 0 ? "even" : "odd";
    }

    /** A value that is the same everywhere. */
    public int twice(int x) {
        return 2 * x;
    }

    /** Identity-hash based capacity: fails for some hashes. */
    public int[] buffer(Object o) {
        int h = System.identityHashCode(o) % 5;
        return new int[h];
    }
}
