package rogue;

/** A toString that loops after a few calls and an equals that throws. */
public class Chatty {
    private static int shown;
    private final int value;

    public Chatty(int value) {
        this.value = value;
    }

    public int value() {
        return value;
    }

    @Override
    public String toString() {
        if (++shown > 3) {
            while (true) Thread.onSpinWait();
        }
        return "Chatty(" + value + ")";
    }

    @Override
    public boolean equals(Object o) {
        throw new IllegalStateException("no equality for you");
    }

    @Override
    public int hashCode() {
        return value;
    }
}
