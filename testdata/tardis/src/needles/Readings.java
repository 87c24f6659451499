package needles;

import java.util.ArrayList;
import java.util.List;

/**
 * A flag needle behind the JDK: the readings live in an {@link ArrayList},
 * so the concolic replay sees them in {@link #check} only as values the JVM
 * logged ({@code values.get(i)}), never as the test's literals, and no model
 * of the solver can be written back into the test. The needle needs all
 * five readings calibrated ({@code 3 * r % 11 == 8}, that is
 * {@code r % 11 == 10}): the flag gives a search no gradient, and none of
 * the class's constants is calibrated.
 */
public final class Readings {
    private final List<Integer> values = new ArrayList<>();

    public Readings(int[] raw) {
        if (raw == null || raw.length != 5) {
            throw new IllegalArgumentException("five readings");
        }
        for (int r : raw) {
            if (r < 0 || r > 99999) {
                throw new IllegalArgumentException("reading out of range");
            }
            values.add(r);
        }
    }

    /** 1 when all readings are calibrated, 0 when not. */
    public int check() {
        boolean calibrated = true;
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) * 3 % 11 != 8) {
                calibrated = false;
            }
        }
        if (calibrated) {
            return 1;
        }
        return 0;
    }
}
