package hostile;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A class under test that tries to leave its sandbox: write and delete
 * files anywhere, start a program, open sockets. Each method returns 1
 * when it succeeded; under the kernel sandbox each throws instead.
 */
public class Escape {
    /** Writes `path` with java.io (absolute or relative). */
    public static int writeIo(String path) throws IOException {
        try (FileOutputStream out = new FileOutputStream(path)) {
            out.write(42);
        }
        return 1;
    }

    /** Creates `path` with java.nio. */
    public static int writeNio(String path) throws IOException {
        Files.write(Path.of(path), new byte[] {42});
        return 1;
    }

    /** Deletes `path` (java.io reports failure by returning false). */
    public static int delete(String path) throws IOException {
        Files.delete(Path.of(path));
        return 1;
    }

    /** Starts `sh -c 'touch marker'`. */
    public static int spawn(String marker) throws Exception {
        Process p = new ProcessBuilder("sh", "-c", "touch " + marker).start();
        p.waitFor();
        return 1;
    }

    /** Opens a server socket on any free loopback port. */
    public static int listen() throws IOException {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            return 1;
        }
    }

    /** Connects to a TCP port on loopback. */
    public static int connect(int port) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return 1;
        }
    }

    /**
     * Writes `path` from JDK code (java.util.Formatter opens the file), out of
     * reach of ferrosuite's call-site checks: only the kernel refuses it.
     */
    public static int writeThroughJdk(String path) throws IOException {
        try (java.util.Formatter f = new java.util.Formatter(path)) {
            f.format("%d", 42);
        }
        return 1;
    }

    /** Connects to a loopback TCP port from JDK code (an HTTP URL). */
    public static int connectThroughJdk(int port) throws IOException {
        try (java.io.InputStream in = new java.net.URL("http://127.0.0.1:" + port + "/").openStream()) {
            return in.read() >= -1 ? 1 : 0;
        }
    }

    /** Writes `path` and swallows the IOException: the kernel's refusal would go unseen. */
    public static int writeAndSwallow(String path) {
        try (FileOutputStream out = new FileOutputStream(path)) {
            out.write(42);
            return 1;
        } catch (IOException e) {
            return 0;
        }
    }

    /** A temporary file: allowed, inside the worker's own folder. */
    public static String tempFile() throws IOException {
        File f = File.createTempFile("escape", ".tmp");
        return f.getParentFile().getCanonicalPath();
    }

    /** The working directory the class under test runs in. */
    public static String workingDirectory() throws IOException {
        return new File(".").getCanonicalPath();
    }
}
