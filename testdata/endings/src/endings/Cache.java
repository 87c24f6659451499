package endings;

import java.util.ArrayList;
import java.util.List;

/** Remembers the small arrays it hands out; a huge one runs out of memory. */
public class Cache {
    private final List<byte[]> kept = new ArrayList<>();

    /** A new array of {@code n} bytes, remembered when it is small. */
    public byte[] take(int n) {
        byte[] a = new byte[n];
        if (n < 1024) {
            kept.add(a);
        }
        return a;
    }

    /** How many arrays are remembered. */
    public int size() {
        return kept.size();
    }
}
