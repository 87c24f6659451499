package edge;

/**
 * Tells what a class named at run time is. No constant holds a class name,
 * so both outcomes past a successful load need names the search does not
 * find in the class's strings.
 */
public class PluginKind {
    public static String kind(String className) {
        Class<?> loaded;
        try {
            loaded = Class.forName(className);
        } catch (ClassNotFoundException e) {
            return "missing";
        }
        if (Runnable.class.isAssignableFrom(loaded)) {
            return "task";
        }
        return "other";
    }
}
