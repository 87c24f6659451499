package game;

/** A player's statistics; goals are recorded one game at a time. */
public class Stats {
    private int goals;
    private int games;

    /** Records a game with {@code g} goals when {@code g} is between 0 and 100. */
    public void record(int g) {
        if (g >= 0 && g <= 100) {
            goals += g;
            games++;
        }
    }

    public int getGoals() {
        return goals;
    }

    public int getGames() {
        return games;
    }
}
