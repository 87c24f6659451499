package protocols;

/** A turnstile with four states: locked, unlocked, broken and in maintenance. */
public class Turnstile {
    public enum State { LOCKED, UNLOCKED, BROKEN, MAINTENANCE }

    private State state = State.LOCKED;
    private int passes;
    private int alarms;
    private int cents;

    public void coin(int amount) {
        if (state == State.BROKEN || state == State.MAINTENANCE) {
            throw new IllegalStateException("out of order");
        }
        cents += amount;
        if (state == State.LOCKED && cents >= 50) {
            cents -= 50;
            state = State.UNLOCKED;
        }
    }

    public boolean push() {
        if (state == State.UNLOCKED) {
            passes++;
            state = State.LOCKED;
            return true;
        }
        if (state == State.LOCKED) {
            alarms++;
            if (alarms >= 3) {
                state = State.BROKEN;
            }
        }
        return false;
    }

    public void service(String code) {
        if (state != State.BROKEN) {
            throw new IllegalStateException("nothing to service");
        }
        if ("fix-42".equals(code)) {
            state = State.MAINTENANCE;
        }
    }

    public void reset() {
        if (state != State.MAINTENANCE) {
            throw new IllegalStateException("not in maintenance");
        }
        alarms = 0;
        state = State.LOCKED;
    }

    public State state() {
        return state;
    }

    public int passes() {
        return passes;
    }
}
