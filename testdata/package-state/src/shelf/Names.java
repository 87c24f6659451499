package shelf;

/** Static state written only by its initialiser: nothing to reset. */
public final class Names {
    static final String[] ALL = {"a", "b"};
    static int loaded = ALL.length;

    private Names() {}
}
