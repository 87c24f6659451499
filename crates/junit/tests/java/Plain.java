/** A class in the default package. */
public class Plain {
    public static int twice(int x) {
        return 2 * x;
    }
}
