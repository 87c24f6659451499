package guard;

/**
 * A class with an {@code assert}: without {@code -ea} a negative reading
 * passes it and takes the {@code reading < -5} branch; with {@code -ea}
 * (as Maven Surefire and Gradle run tests) it throws {@code AssertionError}.
 */
public class Gauge {
    public static int level(int reading) {
        assert reading >= 0 : "a reading is never negative";
        if (reading < -5) {
            return -1;
        }
        if (reading > 100) {
            return 2;
        }
        return 1;
    }
}
