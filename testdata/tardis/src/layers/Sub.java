package layers;

/** A class under test whose needle reads a field its superclass sets. */
public final class Sub extends Base {
    public Sub(int scale) {
        super(scale);
    }

    /** 1 when {@code x * scale == 4242}, else 0. */
    public int hit(int x) {
        if (scaled(x) == 4242 && scale > 1) {
            return 1;
        }
        return 0;
    }
}
