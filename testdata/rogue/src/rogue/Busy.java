package rogue;

/** Starts busy threads that never end. */
public class Busy {
    private volatile long spins;

    /** Starts `n` (at most 4) busy non-daemon threads. */
    public int start(int n) {
        int k = Math.max(0, Math.min(n, 4));
        for (int i = 0; i < k; i++) {
            Thread t = new Thread(() -> {
                while (true) spins++;
            });
            t.start();
        }
        return k;
    }

    public long spins() {
        return spins >= 0 ? 1 : 0;
    }
}
