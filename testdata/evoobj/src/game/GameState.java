package game;

/** Four seats, each empty or taken by a player. */
public class GameState {
    private final Player[] seats = new Player[4];

    /** Seats {@code p} at {@code seat} when the seat exists. */
    public void join(int seat, Player p) {
        if (seat >= 0 && seat < seats.length) {
            seats[seat] = p;
        }
    }

    public Player player(int seat) {
        return seats[seat];
    }
}
