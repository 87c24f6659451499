package game;

/** A rank badge; its level is set only through {@link #promote}, which checks its argument. */
public class Badge {
    private int level;

    /** Sets the level to {@code to} when it is a valid level (1 to 9). */
    public void promote(int to) {
        if (to > 0 && to < 10) {
            level = to;
        }
    }

    public int getLevel() {
        return level;
    }
}
