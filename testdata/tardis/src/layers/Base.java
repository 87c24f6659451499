package layers;

/** A superclass of the class under test that its constructor configures. */
public class Base {
    protected final int scale;

    protected Base(int scale) {
        if (scale <= 0) {
            throw new IllegalArgumentException("scale");
        }
        this.scale = scale;
    }

    /** The scaled value. */
    protected int scaled(int x) {
        return x * scale;
    }
}
