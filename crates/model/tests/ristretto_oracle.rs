//! Differential test of `model::classfile` and `model::bytecode` against the pinned
//! `ristretto_classfile`, on every class of four Debian jars.
//!
//! Both parsers render a class into the same [`ClassView`] (names, flags and the
//! shape of each `Code`); the views must be equal, and our writer must give back
//! the input bytes exactly.

use std::path::PathBuf;

use model::bytecode;
use model::classfile::{ClassFile, Member};
use model::classpath::ClassPath;
use rc::attributes::Attribute as RcAttribute;
use ristretto_classfile as rc;

const JARS: &[&str] = &[
    "/usr/share/java/commons-lang3.jar",
    "/usr/share/java/guava.jar",
    "/usr/share/java/commons-math3.jar",
    "/usr/share/java/asm.jar",
];

/// What both parsers must agree on for one class.
#[derive(Debug, PartialEq)]
struct ClassView {
    version: (u16, u16),
    name: String,
    super_name: Option<String>,
    interfaces: Vec<String>,
    fields: Vec<MemberView>,
    methods: Vec<MemberView>,
}

/// A field or method: name, descriptor, access flags and, for a method with code, its shape.
///
/// ristretto drops undefined access-flag bits (`from_bits_truncate`), so a class that sets one would disagree here.
#[derive(Debug, PartialEq)]
struct MemberView {
    name: String,
    descriptor: String,
    access: u16,
    code: Option<CodeView>,
}

#[derive(Debug, PartialEq)]
struct CodeView {
    instructions: usize,
    max_stack: u16,
    max_locals: u16,
    exception_table: usize,
}

fn our_view(bytes: &[u8]) -> Result<ClassView, String> {
    let cf = ClassFile::parse(bytes).map_err(|e| e.to_string())?;
    let class_name = |i: u16| cf.constant_pool.class_name(i).map(str::to_owned).map_err(|e| e.to_string());
    let super_name = if cf.super_class == 0 { None } else { Some(class_name(cf.super_class)?) };
    let interfaces = cf.interfaces.iter().map(|&i| class_name(i)).collect::<Result<_, _>>()?;
    let fields = cf.fields.iter().map(|m| our_member(&cf, m)).collect::<Result<_, _>>()?;
    let methods = cf.methods.iter().map(|m| our_member(&cf, m)).collect::<Result<_, _>>()?;
    let version = (cf.major_version, cf.minor_version);
    Ok(ClassView { version, name: class_name(cf.this_class)?, super_name, interfaces, fields, methods })
}

fn our_member(cf: &ClassFile, m: &Member) -> Result<MemberView, String> {
    let utf8 = |i: u16| cf.constant_pool.utf8(i).map(str::to_owned).map_err(|e| e.to_string());
    let code = cf.code(m).map_err(|e| e.to_string())?.map(|c| our_code(&c)).transpose()?;
    Ok(MemberView { name: utf8(m.name_index)?, descriptor: utf8(m.descriptor_index)?, access: m.access, code })
}

fn our_code(c: &model::classfile::CodeAttribute) -> Result<CodeView, String> {
    let instructions = bytecode::decode(&c.code).map_err(|e| e.to_string())?.len();
    let exception_table = c.exception_table.len();
    Ok(CodeView { instructions, max_stack: c.max_stack, max_locals: c.max_locals, exception_table })
}

fn their_view(bytes: &[u8]) -> Result<ClassView, String> {
    let cf = rc::ClassFile::from_bytes(bytes).map_err(|e| e.to_string())?;
    let class_name = |i: u16| cf.constant_pool.try_get_class(i).map(|s| s.to_rust_string()).map_err(|e| e.to_string());
    let super_name = if cf.super_class == 0 { None } else { Some(class_name(cf.super_class)?) };
    let interfaces = cf.interfaces.iter().map(|&i| class_name(i)).collect::<Result<_, _>>()?;
    let fields = cf
        .fields
        .iter()
        .map(|f| their_member(&cf, f.name_index, f.descriptor_index, f.access_flags.bits(), &f.attributes));
    let methods = cf
        .methods
        .iter()
        .map(|m| their_member(&cf, m.name_index, m.descriptor_index, m.access_flags.bits(), &m.attributes));
    let version = (cf.version.major(), cf.version.minor());
    let (fields, methods) = (fields.collect::<Result<_, _>>()?, methods.collect::<Result<_, _>>()?);
    Ok(ClassView { version, name: class_name(cf.this_class)?, super_name, interfaces, fields, methods })
}

fn their_member(
    cf: &rc::ClassFile,
    name: u16,
    descriptor: u16,
    access: u16,
    attributes: &[RcAttribute],
) -> Result<MemberView, String> {
    let utf8 = |i: u16| cf.constant_pool.try_get_utf8(i).map(|s| s.to_rust_string()).map_err(|e| e.to_string());
    let code = attributes.iter().find_map(their_code);
    Ok(MemberView { name: utf8(name)?, descriptor: utf8(descriptor)?, access, code })
}

fn their_code(a: &RcAttribute) -> Option<CodeView> {
    let RcAttribute::Code { max_stack, max_locals, code, exception_table, .. } = a else { return None };
    let (max_stack, max_locals) = (*max_stack, *max_locals);
    Some(CodeView { instructions: code.len(), max_stack, max_locals, exception_table: exception_table.len() })
}

/// The first difference between the two views, for a readable failure.
fn first_difference(ours: &ClassView, theirs: &ClassView) -> String {
    let members = ours.fields.iter().chain(&ours.methods).zip(theirs.fields.iter().chain(&theirs.methods));
    match members.into_iter().find(|(a, b)| a != b) {
        Some((a, b)) => format!("ours {a:?}, ristretto {b:?}"),
        None => format!("ours {ours:?}\nristretto {theirs:?}"),
    }
}

/// Compares one class; returns the agreed view, or a description of the disagreement.
fn compare(bytes: &[u8]) -> Result<ClassView, String> {
    let ours = our_view(bytes).map_err(|e| format!("we reject it: {e}"))?;
    let theirs = their_view(bytes).map_err(|e| format!("ristretto rejects it: {e}"))?;
    if ours != theirs {
        return Err(first_difference(&ours, &theirs));
    }
    let round_trip = ClassFile::parse(bytes).map(|cf| cf.to_bytes() == bytes);
    if round_trip != Ok(true) {
        return Err("to_bytes does not give back the input".to_owned());
    }
    Ok(ours)
}

/// What the test compared, for its closing line.
#[derive(Default)]
struct Totals {
    classes: usize,
    methods: usize,
    with_code: usize,
    instructions: usize,
}

impl Totals {
    fn add(&mut self, view: &ClassView) {
        let codes = || view.methods.iter().filter_map(|m| m.code.as_ref());
        self.methods += view.methods.len();
        self.with_code += codes().count();
        self.instructions += codes().map(|c| c.instructions).sum::<usize>();
    }
}

#[test]
fn classfile_agrees_with_ristretto_on_debian_jars() {
    let (mut totals, mut disagreements) = (Totals::default(), Vec::new());
    for jar in JARS {
        let path = PathBuf::from(jar);
        if !path.exists() {
            println!("skipping {jar}: not installed");
            continue;
        }
        let cp = ClassPath::new(std::slice::from_ref(&path)).expect("open jar");
        for name in cp.classes_in(&path).expect("jar is an entry") {
            let bytes = cp.find_bytes(&name).expect("read class").bytes;
            match compare(&bytes) {
                Ok(view) => totals.add(&view),
                Err(e) => disagreements.push(format!("{jar} {name}: {e}")),
            }
            totals.classes += 1;
        }
    }
    let Totals { classes, methods, with_code, instructions } = totals;
    println!(
        "compared {classes} classes and {methods} methods ({with_code} with code, {instructions} instructions) \
         with ristretto_classfile"
    );
    for d in &disagreements {
        println!("disagreement: {d}");
    }
    assert!(disagreements.is_empty(), "{} of {classes} classes disagree", disagreements.len());
}
