package edge;

/**
 * Classifies a text by the marks a separate scanner finds in it: the
 * scanner's character tests run outside the class under test, so no branch
 * distance leads to them, and a test reaches "all" only with a string that
 * holds each of the four characters the scanner compares with.
 */
public class Outline {
    public static String kind(String text) {
        int marks = OutlineScanner.marks(text);
        if (marks == 15) {
            return "all";
        }
        if ((marks & 3) == 3) {
            return "pair";
        }
        return "some";
    }
}
