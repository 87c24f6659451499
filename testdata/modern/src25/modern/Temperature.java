package modern;

/** Java 25: statements before `super(...)` (flexible constructor bodies, JEP 513). */
public class Temperature extends Number {
    private static final long serialVersionUID = 1L;
    private final double kelvin;

    public Temperature(double celsius) {
        if (celsius < -273.15) {
            throw new IllegalArgumentException("below absolute zero: " + celsius);
        }
        double k = celsius + 273.15;
        super();
        this.kelvin = k;
    }

    public boolean isFreezing() {
        return kelvin <= 273.15;
    }

    @Override
    public int intValue() {
        return (int) kelvin;
    }

    @Override
    public long longValue() {
        return (long) kelvin;
    }

    @Override
    public float floatValue() {
        return (float) kelvin;
    }

    @Override
    public double doubleValue() {
        return kelvin;
    }
}
