package protocols;

import java.util.Vector;

/** A segment between two ends, given as a vector of exactly two numbers. */
public class Segment {
    private final int from;
    private final int to;

    public Segment(Vector<Integer> ends) {
        if (ends.size() != 2) {
            throw new IllegalArgumentException("a segment has two ends, not " + ends.size());
        }
        this.from = ends.get(0);
        this.to = ends.get(1);
    }

    public int length() {
        if (to < from) {
            return from - to;
        }
        return to - from;
    }

    public boolean contains(int x) {
        int low = Math.min(from, to);
        int high = Math.max(from, to);
        if (x < low) {
            return false;
        }
        return x <= high;
    }

    public boolean isPoint() {
        return from == to;
    }
}
