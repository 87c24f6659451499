package edge;

/**
 * Holds an optional {@link Stage}. Its getter is the only generator of a
 * {@code Stage} on the class path, and it returns {@code null} until a
 * stage is set: the branches past {@code stage == null} need a stage made
 * some other way (a mock).
 */
public class Pipeline {
    private Stage stage;

    public Stage getStage() {
        return stage;
    }

    public Pipeline setStage(Stage stage) {
        this.stage = stage;
        return this;
    }

    /** The input through the stage, if any; empty when the stage drops it. */
    public String run(String input) {
        if (stage == null) {
            return input;
        }
        String out = stage.apply(input);
        if (out == null) {
            return "";
        }
        return out;
    }
}
