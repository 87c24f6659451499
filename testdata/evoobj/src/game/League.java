package game;

/** Teams of a league by number. */
public class League {
    private final Team[] teams = new Team[6];

    public void enter(int number, Team t) {
        if (number >= 0 && number < teams.length) {
            teams[number] = t;
        }
    }

    public Team team(int number) {
        return number >= 0 && number < teams.length ? teams[number] : null;
    }
}
