package edge;

/** A step of a {@link Pipeline}: no class of the class path implements it. */
public interface Stage {
    /** The step's output for {@code input}; {@code null} when it drops the input. */
    String apply(String input);

    /** The step's name. */
    String name();
}
