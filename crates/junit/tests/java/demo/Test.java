package demo;

/** A class whose simple name is that of JUnit's annotation. */
public class Test {
    public static String name() {
        return "demo test";
    }
}
