package demo;

/** An enum under test. */
public enum Color {
    RED,
    GREEN,
    BLUE;

    public Color next() {
        return values()[(ordinal() + 1) % values().length];
    }

    public boolean isWarm() {
        return this == RED;
    }
}
