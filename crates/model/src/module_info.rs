//! The packages a JDK module exports to everyone, from the `Module`
//! attribute of its `module-info.class` (JVMS §4.7.25). A test is compiled
//! in the unnamed module, so it can name only the public classes of such
//! packages: a public class of `jdk.internal.foreign` exists on the JDK's
//! class path but `javac` refuses it ("package jdk.internal.foreign is not
//! visible").

use crate::classfile::ClassFile;
use crate::constant_pool::Constant;
use crate::reader::Reader;

/// The packages (internal form, `java/util`) the module of `module_info`
/// exports without a `to` clause; empty for a class file without a
/// well-formed `Module` attribute.
pub fn unqualified_exports(module_info: &ClassFile) -> Vec<String> {
    let Some(attribute) = module_info.attributes.iter().find(|a| module_info.attribute_name(a) == "Module") else {
        return Vec::new();
    };
    let cp = &module_info.constant_pool;
    let package_name = |index: u16| match cp.get(index) {
        Ok(Constant::Package(name)) => cp.utf8(*name).ok().map(str::to_string),
        _ => None,
    };
    exports(&attribute.info)
        .unwrap_or_default()
        .into_iter()
        .filter(|(_, to_count)| *to_count == 0)
        .filter_map(|(package, _)| package_name(package))
        .collect()
}

/// The `(exports_index, exports_to_count)` of each entry of a `Module`
/// attribute body.
fn exports(info: &[u8]) -> Result<Vec<(u16, u16)>, crate::classfile::ClassFileError> {
    let mut r = Reader::new(info);
    r.u16("module_name_index")?;
    r.u16("module_flags")?;
    r.u16("module_version_index")?;
    let requires = r.u16("requires_count")?;
    for _ in 0..requires {
        r.u16("requires_index")?;
        r.u16("requires_flags")?;
        r.u16("requires_version_index")?;
    }
    let count = r.u16("exports_count")?;
    let mut out = Vec::with_capacity(usize::from(count));
    for _ in 0..count {
        let package = r.u16("exports_index")?;
        r.u16("exports_flags")?;
        let to_count = r.u16("exports_to_count")?;
        for _ in 0..to_count {
            r.u16("exports_to_index")?;
        }
        out.push((package, to_count));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use crate::classpath::ClassPath;
    use std::path::Path;

    /// `java.base` exports `java/util` to everyone, `jdk/internal/misc` only
    /// to named modules, and `jdk/internal/foreign` to nobody; the class
    /// path knows it, on a JDK with jmods (17) and on one without (25).
    #[test]
    fn java_base_exports_its_api_packages_and_not_its_internal_ones() {
        for home in [crate::jdk::DEBIAN_JDK17, "/usr/lib/jvm/temurin-25-jdk-amd64"] {
            if !Path::new(home).join("bin/javac").is_file() {
                eprintln!("skipped: no JDK at {home}");
                continue;
            }
            let cp = ClassPath::new(&[]).unwrap().with_jdk(Path::new(home)).unwrap();
            assert!(cp.is_exported("java.util.ArrayList"), "{home}");
            assert!(cp.is_exported("java.util.Map$Entry"), "{home}");
            assert!(!cp.is_exported("jdk.internal.misc.Unsafe"), "{home}");
            assert!(!cp.is_exported("sun.nio.ch.Net"), "{home}");
            assert!(cp.is_exported("org.example.NotInTheJdk"), "{home}");
        }
    }
}
