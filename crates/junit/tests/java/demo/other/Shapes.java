package demo.other;

/** Nested classes used from another package, and a name clash with java.util.List. */
public class Shapes {
    public static class Circle {
        private final double radius;

        public Circle(double radius) {
            this.radius = radius;
        }

        public double area() {
            return Math.PI * radius * radius;
        }
    }

    public static java.util.List<String> names() {
        return java.util.Arrays.asList("circle", "square");
    }

    public static int count(List list) {
        return list.size();
    }

    public static int count(java.util.List<String> names) {
        return names.size();
    }
}
