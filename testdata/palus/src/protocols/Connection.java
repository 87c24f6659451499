package protocols;

/** A connection of a {@link Driver}: made only by the driver, used until closed. */
public class Connection {
    private final Driver driver;
    private final String database;
    private boolean closed;
    private int queries;
    private boolean inTransaction;

    Connection(Driver driver, String database) {
        this.driver = driver;
        this.database = database;
    }

    public String query(String sql) {
        if (closed) {
            throw new IllegalStateException("closed");
        }
        if (sql.startsWith("select ")) {
            queries++;
            if (queries == 3) {
                return database + ": third query";
            }
            return database + ":" + sql.substring(7);
        }
        if (sql.equals("begin")) {
            inTransaction = true;
            return "ok";
        }
        if (sql.equals("commit")) {
            if (!inTransaction) {
                throw new IllegalStateException("no transaction");
            }
            inTransaction = false;
            return "committed";
        }
        return null;
    }

    public void close() {
        if (closed) {
            throw new IllegalStateException("closed twice");
        }
        closed = true;
        driver.closed(this);
    }

    public boolean isClosed() {
        return closed;
    }
}
