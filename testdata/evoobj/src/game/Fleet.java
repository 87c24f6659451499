package game;

import java.util.ArrayList;
import java.util.List;

/** Ships in commission. */
public class Fleet {
    private final List<Ship> ships = new ArrayList<>();

    public void commission(Ship s) {
        if (s != null) {
            ships.add(s);
        }
    }

    /** The ship at {@code index}, or null when there is none. */
    public Ship ship(int index) {
        return index >= 0 && index < ships.size() ? ships.get(index) : null;
    }

    public int size() {
        return ships.size();
    }
}
