package demo;

/** Nested classes, a nested enum and a nested checked exception. */
public class Outer {
    public static class Nested {
        private final int value;

        public Nested(int value) {
            this.value = value;
        }

        public int value() {
            return value;
        }

        public static class Deeper {
            public String name() {
                return "deeper";
            }
        }
    }

    public enum Mode {
        FAST,
        SLOW
    }

    public static class Failure extends Exception {
        public Failure(String message) {
            super(message);
        }
    }

    public static Mode mode(boolean fast) {
        return fast ? Mode.FAST : Mode.SLOW;
    }

    public static void check(int x) throws Failure {
        if (x < 0) {
            throw new Failure("negative");
        }
    }

    public static String kind(Class<?> c) {
        return c.getSimpleName();
    }

    public static int count(Class<?>... cs) {
        return cs.length;
    }
}
