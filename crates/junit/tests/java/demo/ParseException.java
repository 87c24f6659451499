package demo;

/** A checked exception of the package. */
public class ParseException extends Exception {
    public ParseException(String message) {
        super(message);
    }
}
