/*
 * FerroAgent -- a Java agent that lets Debian's JaCoCo 0.8.6 agent instrument
 * Java 17 sealed classes and enums whose constants have bodies.
 *
 * JaCoCo 0.8.6 visits classes with the ASM 8 API and gives up on a class
 * that has the PermittedSubclasses attribute (javac 17 emits it for sealed
 * classes and for such enums): "UnsupportedOperationException:
 * PermittedSubclasses requires ASM9", and the class runs uninstrumented, so
 * its coverage would read 0. This agent, given before JaCoCo's on the
 * command line, removes that attribute from the classes under test as they
 * load, so JaCoCo's transformer (registered later, hence run later) sees
 * classes it can instrument. Without the attribute a class is simply not
 * sealed; everything else is unchanged.
 *
 * Usage (javarun.rs builds the jar with "Premain-Class: FerroAgent"):
 *   java -javaagent:ferroagent.jar=pkg.Cut -javaagent:jacocoagent.jar=... ...
 *   The argument is the class under test; it and its nested classes
 *   (pkg.Cut$...) are treated. Several names may be separated by ':'.
 *
 * JacocoCoverage.java uses stripPermittedSubclasses too, so the class bytes
 * it analyses are byte-for-byte those JaCoCo instrumented: JaCoCo finds a
 * class's execution data by a CRC of its bytes.
 */

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;

public final class FerroAgent {
    private FerroAgent() {}

    public static void premain(String args, Instrumentation inst) {
        final String[] names = (args == null ? "" : args).replace('.', '/').split(":");
        inst.addTransformer(new ClassFileTransformer() {
            public byte[] transform(ClassLoader loader, String className, Class<?> redefined,
                    ProtectionDomain domain, byte[] bytes) {
                if (className == null || !wanted(className, names)) {
                    return null;
                }
                try {
                    return stripPermittedSubclasses(bytes); // null when there is nothing to strip
                } catch (Throwable t) {
                    System.err.println("FerroAgent: cannot read " + className + ": " + t);
                    return null;
                }
            }
        });
    }

    private static boolean wanted(String internalName, String[] names) {
        for (String n : names) {
            if (!n.isEmpty() && (internalName.equals(n) || internalName.startsWith(n + "$"))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The class file without its PermittedSubclasses attribute, or null when
     * it has none. Only the class's attribute table changes; the constant
     * pool, fields and methods are copied byte for byte.
     */
    public static byte[] stripPermittedSubclasses(byte[] b) throws IOException {
        int p = 10; // magic, minor, major, constant_pool_count
        int count = u2(b, 8);
        boolean[] permitted = new boolean[count];
        boolean any = false;
        for (int i = 1; i < count; i++) {
            int tag = b[p] & 0xff;
            int index = i;
            switch (tag) {
                case 1: // Utf8
                    int len = u2(b, p + 1);
                    if (len == 19 && utf8(b, p + 3, len).equals("PermittedSubclasses")) {
                        permitted[index] = true;
                        any = true;
                    }
                    p += 3 + len;
                    break;
                case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18:
                    p += 5;
                    break;
                case 5: case 6: // Long, Double: two slots
                    p += 9;
                    i++;
                    break;
                case 7: case 8: case 16: case 19: case 20:
                    p += 3;
                    break;
                case 15: // MethodHandle
                    p += 4;
                    break;
                default:
                    throw new IOException("bad constant-pool tag " + tag + " at offset " + p);
            }
        }
        if (!any) {
            return null;
        }
        p += 6; // access_flags, this_class, super_class
        p += 2 + 2 * u2(b, p); // interfaces
        for (int member = 0; member < 2; member++) { // fields, then methods
            int n = u2(b, p);
            p += 2;
            for (int i = 0; i < n; i++) {
                p += 6;
                p = skipAttributes(b, p);
            }
        }
        int attributes = u2(b, p);
        ByteArrayOutputStream out = new ByteArrayOutputStream(b.length);
        out.write(b, 0, p);
        ByteArrayOutputStream kept = new ByteArrayOutputStream();
        int keptCount = 0;
        int q = p + 2;
        for (int i = 0; i < attributes; i++) {
            int size = 6 + u4(b, q + 2);
            if (!permitted[u2(b, q)]) {
                kept.write(b, q, size);
                keptCount++;
            }
            q += size;
        }
        if (keptCount == attributes) {
            return null;
        }
        DataOutputStream data = new DataOutputStream(out);
        data.writeShort(keptCount);
        kept.writeTo(data);
        data.flush();
        return out.toByteArray();
    }

    private static int skipAttributes(byte[] b, int p) {
        int n = u2(b, p);
        p += 2;
        for (int i = 0; i < n; i++) {
            p += 6 + u4(b, p + 2);
        }
        return p;
    }

    private static int u2(byte[] b, int p) {
        return ((b[p] & 0xff) << 8) | (b[p + 1] & 0xff);
    }

    private static int u4(byte[] b, int p) {
        return ((b[p] & 0xff) << 24) | ((b[p + 1] & 0xff) << 16) | ((b[p + 2] & 0xff) << 8) | (b[p + 3] & 0xff);
    }

    private static String utf8(byte[] b, int p, int len) throws IOException {
        byte[] s = new byte[len + 2];
        s[0] = (byte) (len >> 8);
        s[1] = (byte) len;
        System.arraycopy(b, p, s, 2, len);
        return new DataInputStream(new java.io.ByteArrayInputStream(s)).readUTF();
    }
}
