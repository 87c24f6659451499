package game;

import java.util.ArrayList;
import java.util.List;

/** The members of a crew, in the order they enlisted. */
public class Crew {
    private final List<Member> members = new ArrayList<>();

    public void enlist(Member m) {
        if (m != null && members.size() < 8) {
            members.add(m);
        }
    }

    /** The member at {@code index}, or null when there is none. */
    public Member member(int index) {
        if (index < 0 || index >= members.size()) {
            return null;
        }
        return members.get(index);
    }

    public int size() {
        return members.size();
    }

    public void disband() {
        members.clear();
    }
}
