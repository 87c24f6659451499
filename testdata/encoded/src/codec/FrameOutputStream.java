package codec;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The encoder of a small container format: what is written becomes, on
 * close, one frame (a magic number, a level, the payload's length, the
 * payload and its checksum) in the stream it wraps.
 */
public class FrameOutputStream extends FilterOutputStream {
    private final ByteArrayOutputStream payload = new ByteArrayOutputStream();
    private final int level;

    /** Writes frames of `level` (0 to 7; other values are taken modulo 8) into `out`. */
    public FrameOutputStream(OutputStream out, int level) {
        super(out);
        this.level = level & 7;
    }

    @Override
    public void write(int b) {
        payload.write(b);
    }

    @Override
    public void close() throws IOException {
        byte[] bytes = payload.toByteArray();
        DataOutputStream data = new DataOutputStream(out);
        data.writeInt(FrameReader.MAGIC);
        data.writeByte(level);
        data.writeInt(bytes.length);
        data.write(bytes);
        data.writeLong(FrameReader.checksum(bytes));
        data.close();
    }
}
