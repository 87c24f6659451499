package game;

/** A player and their points. */
public class Player {
    private int points;

    /** Adds {@code p} points when it is positive. */
    public void score(int p) {
        if (p > 0) {
            points += p;
        }
    }

    public int getPoints() {
        return points;
    }
}
