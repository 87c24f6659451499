package rogue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/** Listens on a port and connects to one the test listens on. */
public class Networker {
    /** Listens on the test's chosen port for a moment. */
    public int listen(int backlog) throws IOException {
        try (ServerSocket s = new ServerSocket(@LISTEN_PORT@, Math.max(backlog, 1))) {
            s.setSoTimeout(200);
            return s.getLocalPort();
        }
    }

    /** Connects to the test's server and sends a byte. */
    public boolean call(int b) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", @SERVER_PORT@), 500);
            s.getOutputStream().write(b);
            return true;
        }
    }
}
