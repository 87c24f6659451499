package reset;

import java.util.ArrayList;
import java.util.List;

/** An interface with a static field that is not a constant: never reset (its fields must stay final). */
public interface Named {
    List<String> NAMES = new ArrayList<>();

    String name();
}
