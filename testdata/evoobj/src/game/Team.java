package game;

/** Four seats, each empty or taken by a player. */
public class Team {
    private final Player[] seats = new Player[4];
    private String colour = "red";

    /** Seats {@code p} at {@code seat} when the seat exists. */
    public void seat(int seat, Player p) {
        if (seat >= 0 && seat < seats.length) {
            seats[seat] = p;
        }
    }

    public Player player(int seat) {
        return seat >= 0 && seat < seats.length ? seats[seat] : null;
    }

    public String getColour() {
        return colour;
    }

    public void paint(String colour) {
        this.colour = colour;
    }
}
