package modern;

/** A sealed hierarchy: records implementing a sealed interface. */
public sealed interface Shape permits Shape.Circle, Shape.Rect, Shape.Square {

    record Circle(double radius) implements Shape {
        public Circle {
            if (radius < 0) {
                throw new IllegalArgumentException("negative radius " + radius);
            }
        }
    }

    record Rect(double width, double height) implements Shape {
    }

    record Square(double side) implements Shape {
    }

    /** Area by an exhaustive pattern-matching switch (no default). */
    static double area(Shape shape) {
        return switch (shape) {
            case Circle c -> Math.PI * c.radius() * c.radius();
            case Rect(double w, double h) -> w * h;
            case Square s -> s.side() * s.side();
        };
    }

    /** A switch with guards, a null case and a default. */
    static String describe(Object o) {
        return switch (o) {
            case null -> "nothing";
            case Circle c when c.radius() == 0 -> "a point";
            case Circle c -> "a circle of radius " + c.radius();
            case Rect(double w, double h) when w == h -> "a square rectangle";
            case Rect r -> "a rectangle";
            case String s when s.isEmpty() -> "an empty string";
            case String s -> "the string " + s;
            default -> "something else";
        };
    }
}
