package edge;

import java.io.File;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads folders: which branches run depends on whether a file or path is
 * a folder and whether it holds anything. Generated tests reach them only
 * with folders of their own, some empty and some not.
 */
public class FolderIndex {
    /** How many entries the folder has; -1 for what is not a folder. */
    public static int count(File folder) {
        if (!folder.isDirectory()) {
            return -1;
        }
        String[] names = folder.list();
        if (names.length == 0) {
            return 0;
        }
        return names.length;
    }

    /** Whether the path is a folder with nothing in it. */
    public static boolean isEmptyFolder(Path path) throws IOException {
        if (!Files.isDirectory(path)) {
            return false;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(path)) {
            return !entries.iterator().hasNext();
        }
    }
}
