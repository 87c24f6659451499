package reset;

/** An enum with mutable static state: never reset (new constants would break identity). */
public enum Colour {
    RED, GREEN;

    static int picks;

    public Colour pick() {
        picks++;
        return this;
    }
}
