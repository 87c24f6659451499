//! The class path as the analysis sees it ([`analysis::ocg::ClassSource`]):
//! classes by internal name, and the subtypes of a class among the user's
//! classes for class hierarchy analysis.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use analysis::ocg::ClassSource;
use model::classfile::ClassFile;
use model::classpath::ClassPath;
use model::hierarchy::SubclassIndex;
use model::names::InternalName;

/// Classes of a class path, with a subclass index of the user's classes
/// (built on first use: JDK subtypes are never needed, since slices and
/// call graphs do not enter JDK code).
pub struct ClassPathSource {
    cp: Arc<ClassPath>,
    /// Binary names of the user's classes (the class path without the JDK).
    user_classes: Vec<String>,
    index: Mutex<Option<SubclassIndex>>,
    loaded: Mutex<HashMap<String, Option<Arc<ClassFile>>>>,
}

impl ClassPathSource {
    /// A source over `cp`, whose user classes are `user_classes` (binary names).
    pub fn new(cp: Arc<ClassPath>, user_classes: Vec<String>) -> ClassPathSource {
        ClassPathSource { cp, user_classes, index: Mutex::new(None), loaded: Mutex::new(HashMap::new()) }
    }
}

impl ClassSource for ClassPathSource {
    fn class(&self, internal: &str) -> Option<Arc<ClassFile>> {
        let mut loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        loaded
            .entry(internal.to_string())
            .or_insert_with(|| self.cp.load(InternalName::new(internal).to_binary().as_str()).ok())
            .clone()
    }

    fn subtypes(&self, internal: &str) -> Vec<String> {
        let mut index = self.index.lock().unwrap_or_else(|e| e.into_inner());
        let index = index.get_or_insert_with(|| SubclassIndex::of_classes(&self.cp, &self.user_classes));
        let binary = InternalName::new(internal).to_binary();
        index.subtypes(binary.as_str()).iter().map(|b| b.to_internal().as_str().to_string()).collect()
    }
}
