//! ferrosuite's class model: the class path, class files and Java types.
//!
//! Brief overview of the modules:
//! - [`classfile`]: raw class-file reader/writer with byte-exact round trips.
//! - [`access`]: the `ACC_*` access and property flags.
//! - [`annotations`]: which annotation types a class or member carries.
//! - [`constant_pool`]: constant-pool entries, lookup and appending.
//! - [`code_tables`]: line-number and local-variable tables of `Code`.
//! - [`stackmap`]: the `StackMapTable` attribute (decoded with absolute offsets).
//! - [`bytecode`]: the opcode table, instruction decoding and re-assembly with relayout.
//! - [`names`], [`descriptor`], [`signature`]: Java names and types.
//! - [`classpath`]: directories, jars and jmods, lazy lookup by binary name.
//! - [`jdk`]: finding the JDK whose jmods (or run-time image) complete the class path.
//! - [`jimage`]: the JDK's run-time image `lib/modules`, for JDKs without jmods.
//! - [`module_info`]: the packages a JDK module exports, from its `module-info.class`.
//! - [`release_api`]: the JDK API of an older release (`lib/ct.sym`), for tests compiled with `--release`.
//! - [`hierarchy`]: superclasses, interfaces, subclasses, accessible API.
//!
//! Internal: `reader` is the bounds-checked byte reader of the class-file
//! decoders; `cursor` is the byte cursor of the descriptor and signature parsers.
//!
//! ```no_run
//! let cp = model::classpath::ClassPath::parse("/usr/share/java/commons-lang3.jar").unwrap();
//! let class = cp.load("org.apache.commons.lang3.CharUtils").unwrap();
//! println!("{} has {} methods", class.name(), class.methods.len());
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod access;
pub mod annotations;
pub mod bytecode;
pub mod classfile;
pub mod classpath;
pub mod code_tables;
pub mod constant_pool;
mod cursor;
pub mod descriptor;
pub mod hierarchy;
pub mod jdk;
pub mod jimage;
pub mod module_info;
pub mod names;
mod reader;
pub mod release_api;
pub mod signature;
pub mod stackmap;
