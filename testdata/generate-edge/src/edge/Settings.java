package edge;

/** Nested classes count as part of the class under test: a public builder and a private helper. */
public class Settings {
    private final int width;
    private final String name;

    private Settings(Builder b) {
        this.width = Limits.clamp(b.width);
        this.name = b.name;
    }

    public static Builder builder() {
        return new Builder();
    }

    public String describe() {
        return name == null ? "unnamed:" + width : name + ":" + width;
    }

    /** Reached through its own methods. */
    public static class Builder {
        private int width = 1;
        private String name;

        public Builder width(int w) {
            if (w < 0) {
                throw new IllegalArgumentException("negative width");
            }
            this.width = w;
            return this;
        }

        public Builder name(String n) {
            this.name = n;
            return this;
        }

        public Settings build() {
            return new Settings(this);
        }
    }

    /** Reached only through the outer class. */
    private static final class Limits {
        static int clamp(int w) {
            return w > 100 ? 100 : w;
        }
    }
}
