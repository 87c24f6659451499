package demo.other;

/** A class with the simple name of java.util.List. */
public class List {
    public int size() {
        return 0;
    }
}
