package shelf;

/** The class under test: reads the state of the package's other classes. */
public class Reader {
    public static String read() {
        Ledger.entries++;
        return Shelf.label() + Ledger.entries + "/" + Names.loaded;
    }
}
