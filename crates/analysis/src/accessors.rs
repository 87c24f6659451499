//! Static accessors: methods whose code returns a static field as it is
//! (`return INSTANCE;`, also after a lazy `if (INSTANCE == null) INSTANCE =
//! new X();`), as singletons hand out their one instance through
//! `getInstance()`.

use model::bytecode::{decode, op};
use model::classfile::{ClassFile, Member};

/// The static field (owner as an internal name, and name) that method `m`
/// of `cf` returns as it is: a `getstatic` of a field whose type is the
/// method's return type, right before an `areturn`. `None` when the method
/// has no code, or returns something else anywhere.
pub fn returned_static_field(cf: &ClassFile, m: &Member) -> Option<(String, String)> {
    let descriptor = cf.member_descriptor(m);
    let ret = descriptor.rsplit_once(')')?.1;
    let code = cf.code(m).ok()??;
    let insns = decode(&code.code).ok()?;
    let mut found: Option<(String, String)> = None;
    let returns = insns.iter().enumerate().filter(|(_, insn)| insn.opcode == op::ARETURN).map(|(i, _)| i);
    for i in returns {
        let before = i.checked_sub(1).and_then(|b| insns.get(b)).filter(|b| b.opcode == op::GETSTATIC)?;
        let field = crate::insn::member(&cf.constant_pool, before)?;
        let this = (field.owner.to_owned(), field.name.to_owned());
        if field.descriptor != ret || found.as_ref().is_some_and(|f| *f != this) {
            return None;
        }
        found = Some(this);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = r#"package s;
public class Hub {
    private static final Hub INSTANCE = new Hub();
    private static Hub lazy;
    static Hub other = new Hub();
    public static Hub getInstance() { return INSTANCE; }
    public static Hub lazily() { if (lazy == null) { lazy = new Hub(); } return lazy; }
    public static Hub fresh() { return new Hub(); }
    public static Hub either(boolean b) { if (b) { return INSTANCE; } return other; }
    public static Object widened() { return INSTANCE; }
}
"#;

    #[test]
    fn a_method_that_returns_one_static_field_as_it_is_is_an_accessor() {
        let classes = crate::testutil::compile_with(&[("Hub.java", SOURCE)], &[]);
        let cf = &classes["s/Hub"];
        let of = |name: &str| {
            let m = cf.methods.iter().find(|m| cf.member_name(m) == name).unwrap();
            returned_static_field(cf, m).map(|(_, f)| f)
        };
        assert_eq!(of("getInstance").as_deref(), Some("INSTANCE"));
        assert_eq!(of("lazily").as_deref(), Some("lazy"), "lazy initialisation");
        assert_eq!(of("fresh"), None);
        assert_eq!(of("either"), None, "two fields");
        assert_eq!(of("widened"), None, "the field's type is not the return type");
    }
}
