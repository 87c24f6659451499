package demo;

/** Public fields, static and instance. */
public class Counter {
    public static int total;
    public static final String NAME = "counter";
    public int value;
    public String label = "c";
    public Counter next;

    public static Object make() {
        return new Counter();
    }

    public int add(int delta) {
        value += delta;
        return value;
    }

    public String getLabel() {
        return label;
    }

    public boolean isZero() {
        return value == 0;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Counter && ((Counter) other).value == value;
    }

    @Override
    public int hashCode() {
        return value;
    }
}
