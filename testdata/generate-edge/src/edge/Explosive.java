package edge;

/** A class whose constructor always throws. */
public class Explosive {
    private final int charge;

    public Explosive(int charge) {
        if (charge >= 0 || charge < 0) {
            throw new IllegalStateException("boom: " + charge);
        }
        this.charge = charge;
    }

    public int charge() {
        return charge > 5 ? charge : -charge;
    }
}
