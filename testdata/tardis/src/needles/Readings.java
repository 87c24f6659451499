package needles;

import java.util.ArrayList;
import java.util.List;

/**
 * A flag needle behind the JDK: the readings live in an {@link ArrayList},
 * so the concolic replay sees them in {@link #check} only as values the JVM
 * logged ({@code values.get(i)}), never as the test's literals, and no model
 * of the solver can be written back into the test. The needle needs all
 * five readings, all different, calibrated ({@code 3 * r % 11 == 8}, that
 * is {@code r % 11 == 10}): the flag gives a search no gradient, and none of
 * the class's constants is calibrated.
 */
public final class Readings {
    private final List<Integer> values = new ArrayList<>();

    /** Adds a reading from 0 to 99999, not added before; at most five. */
    public void add(int reading) {
        if (reading < 0 || reading > 99999) {
            throw new IllegalArgumentException("reading out of range");
        }
        if (values.contains(reading)) {
            throw new IllegalArgumentException("reading added before");
        }
        if (values.size() == 5) {
            throw new IllegalStateException("five readings already");
        }
        values.add(reading);
    }

    /** 1 when all five readings are calibrated, 0 when not. */
    public int check() {
        if (values.size() != 5) {
            throw new IllegalStateException("five readings needed");
        }
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
