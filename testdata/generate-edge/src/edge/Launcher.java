package edge;

import java.util.Properties;

/** Reads its settings from a {@code Properties} the caller fills: a mode, a worker count. */
public class Launcher {
    public static String describe(Properties settings) {
        String mode = settings.getProperty("mode");
        if (mode == null) {
            return "default";
        }
        if (mode.equals("fast")) {
            String workers = settings.getProperty("workers", "1");
            return workers.length() > 1 ? "fast, many workers" : "fast";
        }
        return "mode " + mode;
    }
}
