package demo;

/** Overloads that tell which one was called. */
public class Overloads {
    public static String describe(Object o) {
        return "object";
    }

    public static String describe(String s) {
        return "string";
    }

    public static String describe(Integer i) {
        return "integer";
    }

    public static String describe(int i) {
        return "int";
    }

    public static String describe(int[] a) {
        return "int[]";
    }

    public String take(CharSequence s) {
        return "chars";
    }

    public String take(String s) {
        return "string";
    }

    public String pair(Object a, String b) {
        return "object,string";
    }

    public String pair(String a, Object b) {
        return "string,object";
    }

    public static String join(Object... parts) {
        return parts == null ? "null array" : "varargs " + parts.length;
    }

    public static String join(String part) {
        return "one " + part;
    }
}
