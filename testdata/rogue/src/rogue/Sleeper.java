package rogue;

/** Sleeps, waits forever and spins: generation must still end in its budget. */
public class Sleeper {
    private final Object lock = new Object();

    /** Sleeps `ms` milliseconds (at most 5 s), then returns it. */
    public int sleep(int ms) throws InterruptedException {
        if (ms < 0) throw new IllegalArgumentException("negative");
        Thread.sleep(Math.min(ms, 5000));
        return ms;
    }

    /** Waits on a lock nobody notifies. */
    public void waitForever() throws InterruptedException {
        synchronized (lock) {
            while (true) lock.wait();
        }
    }

    /** Spins without end when `n` is odd. */
    public int spin(int n) {
        int i = 0;
        while (n % 2 != 0) i++;
        return i + n;
    }
}
