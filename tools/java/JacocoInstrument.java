/*
 * JacocoInstrument -- offline-instrument a directory of class files with JaCoCo,
 * as a reference instrumenter for ferrosuite's own (e.g. to check that the
 * fixtures Driver prints identical output for original and instrumented code).
 *
 * Usage:
 *   java -cp CP JacocoInstrument IN_CLASS_DIR OUT_CLASS_DIR
 *
 * Every *.class under IN_CLASS_DIR is instrumented into the same relative path
 * under OUT_CLASS_DIR. A class JaCoCo 0.8.6 cannot instrument (e.g. a javac 17
 * class with a PermittedSubclasses attribute, such as an enum whose constants
 * have bodies) is copied unchanged with a warning on stderr.
 *
 * Compile / runtime classpath: same as JacocoBranches (see README.md):
 *   /usr/share/java/org.jacoco.core.jar:/usr/share/java/asm.jar:/usr/share/java/asm-commons.jar:/usr/share/java/asm-tree.jar
 *
 * Running instrumented classes needs JaCoCo's offline runtime on the classpath:
 *   java -cp OUT_CLASS_DIR:/usr/share/java/org.jacoco.agent.rt.jar:<the four jars above> \
 *        -Djacoco-agent.destfile=/tmp/jacoco.exec fixtures.Driver
 *
 * Debian packaging note: upstream's agent jar renames the runtime package to
 * org.jacoco.agent.rt.internal_<hash>, and the default
 * OfflineInstrumentationAccessGenerator() points the probes there; Debian's
 * org.jacoco.agent.rt.jar keeps org.jacoco.agent.rt.internal.Offline, so this
 * tool selects that class name through the (package-private) constructor.
 */

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.nio.file.Files;
import java.util.Arrays;

import org.jacoco.core.instr.Instrumenter;
import org.jacoco.core.runtime.IExecutionDataAccessorGenerator;
import org.jacoco.core.runtime.OfflineInstrumentationAccessGenerator;

public class JacocoInstrument {
    private static final String DEBIAN_RUNTIME = "org/jacoco/agent/rt/internal/Offline";

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: JacocoInstrument <in-class-dir> <out-class-dir>");
            System.exit(2);
        }
        Constructor<OfflineInstrumentationAccessGenerator> ctor =
                OfflineInstrumentationAccessGenerator.class.getDeclaredConstructor(String.class);
        ctor.setAccessible(true);
        IExecutionDataAccessorGenerator access = ctor.newInstance(DEBIAN_RUNTIME);
        Instrumenter instrumenter = new Instrumenter(access);
        int[] counts = new int[2];
        walk(new File(args[0]), new File(args[1]), instrumenter, counts);
        System.err.println("instrumented " + counts[0] + " classes, copied " + counts[1] + " unchanged");
    }

    private static void walk(File in, File out, Instrumenter instrumenter, int[] counts) throws IOException {
        File[] files = in.listFiles();
        if (files == null) return;
        Arrays.sort(files);
        for (File f : files) {
            File target = new File(out, f.getName());
            if (f.isDirectory()) {
                walk(f, target, instrumenter, counts);
            } else if (f.getName().endsWith(".class")) {
                target.getParentFile().mkdirs();
                byte[] bytes = Files.readAllBytes(f.toPath());
                byte[] result;
                try {
                    result = instrumenter.instrument(bytes, f.getPath());
                    counts[0]++;
                } catch (IOException e) {
                    System.err.println("warning: copied unchanged: " + f + ": "
                            + (e.getCause() != null ? e.getCause() : e));
                    result = bytes;
                    counts[1]++;
                }
                Files.write(target.toPath(), result);
            }
        }
    }
}
