package game;

/**
 * The rules of a small game, the class under test of the EvoObj fixtures
 * (after the game-rules example of Lin et al., ESEC/FSE 2021). Each method's
 * last branch depends on fields of objects reached through its parameters:
 * through getters and lists, through calls on a parameter and arrays, through
 * an array parameter, and through a private field only a checked public
 * method sets.
 */
public class Rules {
    /** Getters and lists: fleet.ship(s).getCrew().member(m).getBadge().getLevel() == 7. */
    public boolean canCommand(Fleet fleet, int s, int m) {
        Ship ship = fleet.ship(s);
        if (ship == null) {
            return false;
        }
        Member member = ship.getCrew().member(m);
        if (member == null || member.isRetired()) {
            return false;
        }
        return member.getBadge().getLevel() == 7;
    }

    /** Calls on a parameter and arrays: league.team(t).player(p) scored 91 to 94 goals. */
    public String winner(League league, int t, int p) {
        Team team = league.team(t);
        if (team == null) {
            return "nobody";
        }
        Player player = team.player(p);
        if (player == null) {
            return "nobody";
        }
        int goals = player.getStats().getGoals();
        if (goals > 90 && goals < 95) {
            return player.getName();
        }
        return "nobody";
    }

    /** An array parameter: the third player of the second row. */
    public int bonus(Player[][] grid) {
        if (grid.length > 1 && grid[1].length > 2 && grid[1][2] != null) {
            int goals = grid[1][2].getStats().getGoals();
            if (goals > 90 && goals < 95) {
                return 10;
            }
        }
        return 0;
    }

    /** A private field behind a checked method: the owner's vault holds 301 to 309 gold. */
    public boolean rich(Bank bank, String owner) {
        Vault vault = bank.vaultOf(owner);
        if (vault == null || vault.isFrozen()) {
            return false;
        }
        int gold = vault.getAccount().gold();
        return gold > 300 && gold < 310;
    }
}
