package modern;

/** An enum whose constants have bodies. */
public enum Planet {
    MERCURY(3.303e+23, 2.4397e6) {
        @Override
        public String kind() {
            return "rocky, hot";
        }
    },
    EARTH(5.976e+24, 6.37814e6) {
        @Override
        public String kind() {
            return "rocky, home";
        }
    },
    JUPITER(1.9e+27, 7.1492e7) {
        @Override
        public String kind() {
            return mass > 1e27 ? "giant" : "gas";
        }
    };

    final double mass;
    private final double radius;

    Planet(double mass, double radius) {
        this.mass = mass;
        this.radius = radius;
    }

    public abstract String kind();

    public double surfaceGravity() {
        return 6.67300E-11 * mass / (radius * radius);
    }

    public boolean heavierThan(Planet other) {
        return other != null && mass > other.mass;
    }
}
