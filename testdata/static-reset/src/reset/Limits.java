package reset;

/** Constants only: nothing to reset, and the constants keep their ConstantValue and final flag. */
public class Limits {
    public static final int MAX = 10;
    public static final String NAME = "limits";
}
