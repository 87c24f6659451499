package edge;

import java.io.IOException;

/**
 * Writes into the {@code Appendable} it is given and returns nothing: what
 * a test can assert is what the sink holds afterwards.
 */
public class Greeter {
    private final String greeting;

    public Greeter(String greeting) {
        this.greeting = greeting;
    }

    public void greet(Appendable out, String name) throws IOException {
        out.append(greeting).append(", ").append(name == null ? "stranger" : name).append('!');
    }
}
