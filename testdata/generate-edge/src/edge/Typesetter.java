package edge;

/** Writes cells as a {@link Layout} says: each branch needs a configured layout. */
public class Typesetter {
    private final Layout layout;
    private final StringBuilder out = new StringBuilder();

    public Typesetter(Layout layout) {
        this.layout = layout;
    }

    public Typesetter cell(String value) {
        if (out.length() > 0) {
            out.append(layout.getSeparator());
        }
        out.append(layout.isTrim() ? value.trim() : value);
        return this;
    }

    public Typesetter comment(String text) {
        if (layout.getComment() == null) {
            return this;
        }
        out.append(layout.getComment()).append(' ').append(text).append('\n');
        return this;
    }

    public boolean usesSemicolons() {
        return layout.getSeparator() == ';';
    }

    public String text() {
        return out.toString();
    }
}
