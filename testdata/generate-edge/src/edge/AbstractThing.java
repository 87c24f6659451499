package edge;

/** An abstract class with no subclass on the class path. */
public abstract class AbstractThing {
    protected abstract int weight();

    public boolean isHeavy() {
        return weight() > 10;
    }
}
