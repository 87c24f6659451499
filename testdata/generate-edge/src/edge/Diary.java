package edge;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;

/**
 * Serializable with private `writeObject`/`readObject`, which only a
 * serialization round trip reaches (generate.rs).
 */
public class Diary implements Serializable {
    private static final long serialVersionUID = 1L;
    private String owner;
    private transient int reads;

    public Diary(String owner) {
        this.owner = owner;
    }

    public String owner() {
        return owner;
    }

    public int reads() {
        return reads;
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
        if (owner == null) {
            out.writeUTF("");
        } else {
            out.writeUTF(owner);
        }
    }

    private void readObject(ObjectInputStream in) throws IOException {
        String read = in.readUTF();
        owner = read.isEmpty() ? null : read;
        reads = 1;
    }
}
