package contracts;

/** A text padded to a width. */
public class Label {
    private final String text;
    private final int width;

    public Label(String text, int width) {
        if (text == null) {
            throw new IllegalArgumentException("text");
        }
        this.text = text;
        this.width = width;
    }

    public Label widen(int more) {
        return new Label(text, width + more);
    }

    public int width() {
        return width;
    }

    public boolean fits() {
        return text.length() <= width;
    }

    @Override
    public String toString() {
        // Bug: a width less than the text's length makes the count negative.
        return text + " ".repeat(width - text.length());
    }
}
