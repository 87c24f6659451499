package edge;

/**
 * A class under test with no accessible constructor whose instances a test
 * reaches only through the factory that {@link #factory} returns and the
 * {@link Format} that factory creates (gson's {@code DefaultDateTypeAdapter}).
 */
public final class Stamp extends Format<Integer> {
    private final String unit;

    private Stamp(String unit) {
        this.unit = unit;
    }

    public static FormatFactory factory(String unit) {
        return Formats.newFactory(Integer.class, new Stamp(unit));
    }

    @Override
    public String format(Integer value) {
        if (value == null) {
            return "none";
        }
        if (value < 0) {
            return "-" + unit;
        }
        return value + unit;
    }
}
