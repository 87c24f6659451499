package edge;

/** Tells text by the tags it holds: bold needs both constants in one string. */
public class Markup {
    public static String style(String text) {
        boolean open = text.contains("<em>");
        boolean close = text.contains("</em>");
        if (open && close) {
            return "emphasis";
        }
        if (open) {
            return "unclosed";
        }
        if (close) {
            return "unopened";
        }
        return "plain";
    }
}
