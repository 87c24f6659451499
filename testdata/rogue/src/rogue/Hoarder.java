package rogue;

import java.util.ArrayList;
import java.util.List;

/** Hoards memory in a static list. */
public class Hoarder {
    private static final List<long[]> HOARD = new ArrayList<>();

    /** Adds `mb` megabytes to the hoard; returns the hoard's size. */
    public static int hoard(int mb) {
        for (int i = 0; i < mb; i++) HOARD.add(new long[128 * 1024]);
        return HOARD.size();
    }

    /** Empties the hoard. */
    public static void release() {
        HOARD.clear();
    }
}
