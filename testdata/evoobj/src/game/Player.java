package game;

/** A player and their points. */
public class Player {
    private final String name;
    private int points;
    private final Stats stats = new Stats();

    public Player(String name) {
        this.name = name;
    }

    /** Adds {@code p} points when it is between 1 and 100. */
    public void score(int p) {
        if (p > 0 && p <= 100) {
            points += p;
        }
    }

    public void penalty() {
        points = Math.max(0, points - 10);
    }

    public int getPoints() {
        return points;
    }

    public Stats getStats() {
        return stats;
    }

    public String getName() {
        return name;
    }
}
