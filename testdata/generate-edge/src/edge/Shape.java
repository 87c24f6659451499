package edge;

/** An interface with no implementation on the class path. */
public interface Shape {
    double area();

    default boolean isLarge() {
        return area() > 100;
    }
}
