package edge;

/**
 * An immutable configuration reached only through fluent calls on its
 * default (as commons-csv's {@code CSVFormat}): {@code Typesetter}'s
 * branches need layouts other than {@link #DEFAULT}.
 */
public final class Layout {
    public static final Layout DEFAULT = new Layout(',', null, false);

    private final char separator;
    private final String comment;
    private final boolean trim;

    private Layout(char separator, String comment, boolean trim) {
        this.separator = separator;
        this.comment = comment;
        this.trim = trim;
    }

    public Layout withSeparator(char separator) {
        return new Layout(separator, comment, trim);
    }

    public Layout withComment(String comment) {
        return new Layout(separator, comment, trim);
    }

    public Layout withTrim(boolean trim) {
        return new Layout(separator, comment, trim);
    }

    public char getSeparator() {
        return separator;
    }

    public String getComment() {
        return comment;
    }

    public boolean isTrim() {
        return trim;
    }
}
