package game;

/** A ship with its crew. */
public class Ship {
    private final String name;
    private final Crew crew = new Crew();
    private int fuel;

    public Ship(String name) {
        this.name = name;
    }

    public String getName() {
        return name;
    }

    public Crew getCrew() {
        return crew;
    }

    public void refuel(int amount) {
        if (amount > 0) {
            fuel += amount;
        }
    }

    public int getFuel() {
        return fuel;
    }
}
