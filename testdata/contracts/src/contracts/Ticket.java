package contracts;

import java.util.Objects;

/** A ticket for an event, with a serial number. */
public class Ticket {
    private static int next = 1;

    private final String event;
    private final int serial;

    public Ticket(String event) {
        this.event = event;
        this.serial = next++;
    }

    public String event() {
        return event;
    }

    public int serial() {
        return serial;
    }

    /** Two tickets are equal when they are for the same event. */
    @Override
    public boolean equals(Object o) {
        return o instanceof Ticket && Objects.equals(event, ((Ticket) o).event);
    }

    /** Bug: the serial number is not part of equality, but of the hash. */
    @Override
    public int hashCode() {
        return Objects.hash(event, serial);
    }

    @Override
    public String toString() {
        return event + "#" + serial;
    }
}
