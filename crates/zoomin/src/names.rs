//! Parameter names for traced variables: the tracer names parameters by
//! position (`p0`, `p1.re`); the class file's `LocalVariableTable` (classes
//! compiled with `-g`) gives their source names (`other`, `other.re`).

use std::collections::BTreeMap;

use instrument::record::RecordedMethod;
use model::classpath::ClassPath;
use model::code_tables::parse_local_variables;
use model::descriptor::MethodDescriptor;

use crate::trace::Execution;

/// Renames `p<i>` variables of `executions` to the parameters' source
/// names where the class files of `methods` have them.
pub fn rename_parameters(cp: &ClassPath, methods: &[RecordedMethod], executions: &mut [Execution]) {
    let names: BTreeMap<u32, Vec<Option<String>>> = methods.iter().map(|m| (m.id, parameter_names(cp, m))).collect();
    for e in executions {
        let Some(params) = names.get(&e.method) else { continue };
        for (name, _) in &mut e.entry {
            if let Some(renamed) = rename(name, params) {
                *name = renamed;
            }
        }
    }
}

/// `p3.x` → `other.x` when parameter 3 is called `other`.
fn rename(var: &str, params: &[Option<String>]) -> Option<String> {
    let rest = var.strip_prefix('p')?;
    let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
    let index: usize = rest[..digits].parse().ok()?;
    let name = params.get(index)?.as_ref()?;
    Some(format!("{name}{}", &rest[digits..]))
}

/// The source names of the method's parameters, by position (`None` where
/// the class file does not say).
fn parameter_names(cp: &ClassPath, m: &RecordedMethod) -> Vec<Option<String>> {
    let Ok(descriptor) = MethodDescriptor::parse(&m.descriptor) else { return Vec::new() };
    let mut slots = Vec::new();
    let mut slot: u16 = if m.is_static() { 0 } else { 1 };
    for t in &descriptor.params {
        slots.push(slot);
        slot += u16::from(t.slots());
    }
    let mut by_slot: BTreeMap<u16, String> = BTreeMap::new();
    if let Ok(cf) = cp.load(m.class.as_str())
        && let Some(member) =
            cf.methods.iter().find(|x| cf.member_name(x) == m.name && cf.member_descriptor(x) == m.descriptor)
        && let Ok(Some(code)) = cf.code(member)
    {
        let tables = code
            .attributes
            .iter()
            .filter(|a| cf.constant_pool.utf8(a.name_index).is_ok_and(|n| n == "LocalVariableTable"));
        for row in tables.filter_map(|a| parse_local_variables(&a.info).ok()).flatten() {
            if row.start_pc == 0
                && let Ok(name) = cf.constant_pool.utf8(row.name_index)
            {
                by_slot.insert(row.index, name.to_string());
            }
        }
    }
    slots.iter().map(|s| by_slot.get(s).cloned()).collect()
}

#[cfg(test)]
mod tests {
    use super::rename;

    #[test]
    fn renames_positional_parameters() {
        let params = vec![Some("other".to_string()), None];
        assert_eq!(rename("p0.re", &params).as_deref(), Some("other.re"));
        assert_eq!(rename("p0", &params).as_deref(), Some("other"));
        assert_eq!(rename("p1[0]", &params), None);
        assert_eq!(rename("this.p0", &params), None);
    }
}
