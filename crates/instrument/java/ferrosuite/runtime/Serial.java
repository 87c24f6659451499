package ferrosuite.runtime;

import java.io.IOException;
import java.io.ObjectInputStream;

/**
 * Reads objects back in a worker as a test under JUnit does. The worker
 * calls test statements through JNI, where no Java frame is on the stack:
 * {@code ObjectInputStream.resolveClass} then asks the bootstrap loader
 * (the "latest user-defined loader" is none) and cannot find the class
 * under test. Called through this class, loaded by the application class
 * loader, it finds them.
 */
public final class Serial {
    private Serial() {
    }

    /** {@code in.readObject()} with this class's frame on the stack. */
    public static Object readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        return in.readObject();
    }
}
