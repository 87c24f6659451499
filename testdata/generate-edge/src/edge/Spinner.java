package edge;

import java.util.stream.IntStream;

/**
 * A class some of whose inputs make it wait forever in the JDK's code,
 * where no instrumented back edge checks the time: the search lowers its
 * per-test time limit to what the tests that end need (generate.rs).
 */
public class Spinner {
    private int turns;

    public int turn(int step) {
        if (step <= 0) {
            // Never ends: the stream repeats 0, which is no letter (method
            // references to the JDK: no code of this class runs in the loop).
            return IntStream.iterate(0, Math::abs).filter(Character::isAlphabetic).findFirst().orElse(-1);
        }
        turns += step;
        if (turns > 1000) {
            turns = 0;
            return -1;
        }
        return turns;
    }
}
