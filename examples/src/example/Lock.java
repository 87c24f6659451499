package example;

/**
 * A combination lock with the code 1-2-3: {@link #open()} returns true only
 * after {@code enter(1)}, {@code enter(2)}, {@code enter(3)} in this order.
 * Three wrong digits in a row block the lock until {@link #reset()}.
 */
public class Lock {
    private static final int[] CODE = {1, 2, 3};
    /** Wrong digits in a row that block the lock. */
    public static final int MAX_WRONG = 3;

    private int progress;
    private int wrongInARow;
    private boolean open;
    private boolean blocked;

    /** Enters one digit (0..9). */
    public void enter(int digit) {
        if (digit < 0 || digit > 9) {
            throw new IllegalArgumentException("not a digit: " + digit);
        }
        if (blocked || open) {
            return;
        }
        if (progress < CODE.length && digit == CODE[progress]) {
            progress++;
            wrongInARow = 0;
        } else {
            // a wrong digit may still start the code again
            progress = digit == CODE[0] ? 1 : 0;
            wrongInARow++;
            if (wrongInARow >= MAX_WRONG) {
                blocked = true;
            }
        }
    }

    /** Opens the lock if the whole code was entered; returns whether it is open. */
    public boolean open() {
        if (blocked) {
            return false;
        }
        if (progress == CODE.length) {
            open = true;
        }
        return open;
    }

    /** Closes the lock; the code must be entered again. */
    public void close() {
        if (!open) {
            throw new IllegalStateException("the lock is not open");
        }
        open = false;
        progress = 0;
    }

    /** Unblocks the lock and forgets the digits entered. */
    public void reset() {
        blocked = false;
        wrongInARow = 0;
        progress = 0;
    }

    public boolean isOpen() {
        return open;
    }

    public boolean isBlocked() {
        return blocked;
    }

    /** How many digits of the code have been entered correctly so far. */
    public int getProgress() {
        return progress;
    }
}
