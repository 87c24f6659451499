package game;

/** Static helpers that take no objects: nothing for EvoObj to explain. */
public final class Dice {
    private Dice() {
    }

    public static int clamp(int face) {
        if (face < 1) {
            return 1;
        }
        return Math.min(face, 6);
    }
}
