package codec;

import java.io.DataInputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The decoder of `FrameOutputStream`'s format: random bytes fail its first
 * check (the magic number), so only input the encoder wrote reaches the
 * payload's branches.
 */
public class FrameReader {
    static final int MAGIC = 0x46524D31;

    private final DataInputStream in;

    /** Reads frames from `in`. */
    public FrameReader(InputStream in) {
        this.in = new DataInputStream(in);
    }

    /** What `read` gives for the first frame of `file`. */
    public static String readFile(File file) throws IOException {
        try (InputStream in = new FileInputStream(file)) {
            return new FrameReader(in).read();
        }
    }

    /** The next frame's payload as text, marked by its level and size. */
    public String read() throws IOException {
        if (in.readInt() != MAGIC) {
            throw new IOException("not a frame");
        }
        int level = in.readByte();
        int length = in.readInt();
        if (length < 0 || length > (1 << 20)) {
            throw new IOException("bad length " + length);
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        if (in.readLong() != checksum(bytes)) {
            throw new IOException("bad checksum");
        }
        return describe(level, new String(bytes, StandardCharsets.UTF_8));
    }

    private static String describe(int level, String text) {
        if (text.length() > 8) {
            return (level > 3 ? "HIGH " : "low ") + text.substring(0, 8) + "...";
        }
        return level > 3 ? "HIGH " + text : "low " + text;
    }

    /** A checksum of `bytes` (FNV-1a, 64 bits). */
    static long checksum(byte[] bytes) {
        long hash = 0xcbf29ce484222325L;
        for (byte b : bytes) {
            hash ^= b & 0xff;
            hash *= 0x100000001b3L;
        }
        return hash;
    }
}
