package demo.other;

/** An unchecked exception of another package. */
public class Fault extends RuntimeException {
    public Fault(String message) {
        super(message);
    }
}
