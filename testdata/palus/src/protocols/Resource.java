package protocols;

/** A resource that must be opened before it is read, and read at most three times per opening. */
public class Resource {
    private final String name;
    private boolean open;
    private int reads;
    private int openings;

    public Resource(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a resource needs a name");
        }
        this.name = name;
    }

    public void open() {
        if (open) {
            throw new IllegalStateException("already open");
        }
        open = true;
        reads = 0;
        openings++;
    }

    public int read() {
        if (!open) {
            throw new IllegalStateException("not open");
        }
        reads++;
        if (reads > 3) {
            return -1;
        }
        if (openings > 1) {
            return name.length() * 10 + reads;
        }
        return name.length() + reads;
    }

    public void close() {
        if (!open) {
            throw new IllegalStateException("not open");
        }
        open = false;
    }

    public boolean isOpen() {
        return open;
    }
}
