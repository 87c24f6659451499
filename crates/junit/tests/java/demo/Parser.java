package demo;

import demo.other.Fault;

/** Methods that throw. */
public class Parser {
    public static int parse(String s) throws ParseException {
        if (s.isEmpty()) {
            throw new ParseException("empty \"input\"");
        }
        return s.length();
    }

    public static int strict(String s) {
        return Integer.parseInt(s);
    }

    public static void fault() {
        throw new Fault("fault");
    }

    public static void broken() {
        throw new AssertionError("broken");
    }

    public static void error() {
        throw new Error("error");
    }

    public static int length(String s) {
        return s.length();
    }
}
