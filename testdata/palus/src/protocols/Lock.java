package protocols;

/** A combination lock whose code no constant of the class gives away. */
public class Lock {
    private boolean open;

    public boolean open(int code) {
        if (Integer.toString(code).hashCode() == 1598844) {
            open = true;
        }
        return open;
    }
}
