package game;

/** A rank badge; its level changes only through {@link #promote}, which checks its argument. */
public class Badge {
    private int level;
    private String motto = "";

    /** Sets the level to {@code to} when it is a valid level (1 to 9). */
    public void promote(int to) {
        if (to > 0 && to < 10) {
            level = to;
        }
    }

    public void demote() {
        if (level > 1) {
            level--;
        }
    }

    public int getLevel() {
        return level;
    }

    public String getMotto() {
        return motto;
    }

    public void setMotto(String motto) {
        this.motto = motto == null ? "" : motto;
    }
}
