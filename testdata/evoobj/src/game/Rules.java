package game;

/**
 * The rules of a small game, the class under test of the EvoObj fixtures
 * (after the game-rules example of Lin et al., ESEC/FSE 2021). Each method's
 * interesting branch depends on fields of objects reached through its
 * parameters: through getters, through calls on a parameter, through an
 * array, and through a private field only a checked public method sets.
 */
public class Rules {
    /** Getters: crew.member(id).getBadge().getLevel() == 7. */
    public boolean canCommand(Crew crew, int id) {
        Member m = crew.member(id);
        if (m == null) {
            return false;
        }
        Badge b = m.getBadge();
        if (b == null) {
            return false;
        }
        if (b.getLevel() == 7) {
            return true;
        }
        return false;
    }

    /** A call on a parameter: state.player(actor) and its points. */
    public String winner(GameState state, int actor) {
        if (actor < 0 || actor > 3) {
            return "nobody";
        }
        Player p = state.player(actor);
        if (p != null && p.getPoints() == 250) {
            return "player " + actor;
        }
        return "nobody";
    }

    /** An array element: the third player of a team. */
    public int bonus(Player[] team) {
        if (team.length > 2 && team[2] != null && team[2].getPoints() > 90 && team[2].getPoints() < 100) {
            return 10;
        }
        return 0;
    }

    /** A private field behind a checked method: the vault's gold. */
    public boolean rich(Vault vault) {
        if (vault.gold() > 4000 && vault.gold() < 4100) {
            return true;
        }
        return false;
    }
}
