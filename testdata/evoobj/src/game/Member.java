package game;

/** A crew member; every member wears the badge made with them. */
public class Member {
    private String name;
    private final Badge badge = new Badge();
    private boolean retired;

    public Member(String name) {
        this.name = name;
    }

    public String getName() {
        return name;
    }

    public void rename(String name) {
        this.name = name;
    }

    public Badge getBadge() {
        return badge;
    }

    public void retire() {
        retired = true;
    }

    public boolean isRetired() {
        return retired;
    }
}
