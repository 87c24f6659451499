package edge;

/** The scanner {@link Outline} calls: which of four marks a text holds, as bits. */
public class OutlineScanner {
    public static int marks(String text) {
        int marks = 0;
        for (char c : text.toCharArray()) {
            if (c == '&') {
                marks |= 1;
            } else if (c == '*') {
                marks |= 2;
            } else if (c == '|') {
                marks |= 4;
            } else if (c == '~') {
                marks |= 8;
            }
        }
        return marks;
    }
}
