package needles;

/**
 * The TARDIS paper's sample program in Java: a flag set inside a loop over
 * an array that the constructor fills, behind constructor checks that make
 * most alternatives infeasible (a length from 3 to 10, every item from 0 to
 * the limit). The needle of {@link #probe} needs two items related to
 * the key through a mix of bits, which gives a search no gradient.
 */
public final class FlagBag {
    private final int[] items;
    private final int limit;

    public FlagBag(int[] items, int limit) {
        if (items == null) {
            throw new IllegalArgumentException("no items");
        }
        if (items.length < 3 || items.length > 10) {
            throw new IllegalArgumentException("3 to 10 items");
        }
        if (limit < 100 || limit > 5000) {
            throw new IllegalArgumentException("limit from 100 to 5000");
        }
        this.items = new int[items.length];
        for (int i = 0; i < items.length; i++) {
            if (items[i] < 0 || items[i] > limit) {
                throw new IllegalArgumentException("item out of range");
            }
            this.items[i] = items[i];
        }
        this.limit = limit;
    }

    /**
     * 2 when at least two items {@code x} at index {@code i} have
     * {@code mix(x + i) == mix(key) + 1}, 1 when one has, 0 otherwise.
     */
    public int probe(int key) {
        int target = mix(key) + 1;
        boolean found = false;
        int count = 0;
        for (int i = 0; i < items.length; i++) {
            if (mix(items[i] + i) == target) {
                found = true;
                count++;
            }
        }
        if (found && count >= 2) {
            return 2;
        }
        return found ? 1 : 0;
    }

    /** A bijective mix of the bits (no gradient for a search). */
    private static int mix(int x) {
        x ^= x >>> 7;
        x *= 0x2c1b3c6d;
        x ^= x >>> 12;
        return x;
    }

    /** The limit. */
    public int limit() {
        return limit;
    }
}
