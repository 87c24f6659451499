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
            // Never ends for step <= 0: no element is ever both negative and positive.
            return IntStream.iterate(0, i -> i + step).filter(i -> i < 0 && i > 0).findFirst().getAsInt();
        }
        turns += step;
        if (turns > 1000) {
            turns = 0;
            return -1;
        }
        return turns;
    }
}
