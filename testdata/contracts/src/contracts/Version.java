package contracts;

/** A version number major.minor, ordered. */
public final class Version implements Comparable<Version> {
    private final int major;
    private final int minor;

    public Version(int major, int minor) {
        this.major = major;
        this.minor = minor;
    }

    public int major() {
        return major;
    }

    public int minor() {
        return minor;
    }

    public Version next() {
        return new Version(major, minor + 1);
    }

    @Override
    public int compareTo(Version o) {
        if (this == o) {
            return 0;
        }
        if (major != o.major) {
            return major < o.major ? -1 : 1;
        }
        // Bug: equal minors compare as less, both ways.
        return minor <= o.minor ? -1 : 1;
    }

    @Override
    public String toString() {
        return major + "." + minor;
    }
}
