package game;

/** A crew member who may wear a badge. */
public class Member {
    private final String name;
    private Badge badge;

    public Member(String name) {
        this.name = name;
    }

    public String getName() {
        return name;
    }

    public Badge getBadge() {
        return badge;
    }

    public void setBadge(Badge badge) {
        this.badge = badge;
    }
}
