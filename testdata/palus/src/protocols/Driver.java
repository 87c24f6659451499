package protocols;

import java.util.ArrayList;
import java.util.List;

/** Hands out connections for URLs of the form fake://database; each must be closed. */
public class Driver {
    private final List<Connection> live = new ArrayList<>();

    public Connection connect(String url) {
        if (url == null || !url.startsWith("fake://")) {
            return null;
        }
        String database = url.substring("fake://".length());
        if (database.isEmpty()) {
            throw new IllegalArgumentException("no database in " + url);
        }
        Connection c = new Connection(this, database);
        live.add(c);
        return c;
    }

    void closed(Connection c) {
        live.remove(c);
    }

    public int openConnections() {
        return live.size();
    }

    public String status() {
        if (live.isEmpty()) {
            return "idle";
        }
        if (live.size() > 1) {
            return "busy";
        }
        return "one";
    }
}
