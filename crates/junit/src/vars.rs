//! Local variable names: each value is named after the type it is declared
//! with, as EvoSuite does (`stack0`, `string1`, `int0`, `intArray0`), with
//! one counter per name in the order the declarations are printed.

use std::collections::HashMap;

use model::descriptor::FieldType;
use testcase::VarId;

/// The names of the variables of one test method.
#[derive(Debug, Default)]
pub(crate) struct Vars {
    names: HashMap<VarId, String>,
    counters: HashMap<String, u32>,
}

impl Vars {
    /// Names the value of `var`, declared with a type whose erasure is `ty`.
    pub(crate) fn declare(&mut self, var: VarId, ty: &FieldType) -> String {
        let base = base_name(ty);
        let counter = self.counters.entry(base.clone()).or_default();
        let name = format!("{base}{counter}");
        *counter += 1;
        self.names.insert(var, name.clone());
        name
    }

    /// The name of `var`. A validated test case only uses declared values;
    /// for others the IR's own `v3` keeps the output readable (javac rejects it).
    pub(crate) fn name(&self, var: VarId) -> String {
        self.names.get(&var).cloned().unwrap_or_else(|| var.to_string())
    }
}

/// `int`, `string` (for `java.lang.String`), `entry` (for `java.util.Map$Entry`),
/// `intArray` (for `int[]` and `int[][]`).
fn base_name(ty: &FieldType) -> String {
    match ty {
        FieldType::Base(base) => base.java_name().to_owned(),
        FieldType::Object(class) => class_base_name(&class.java_name()),
        FieldType::Array(component) => {
            let mut element = component.as_ref();
            while let FieldType::Array(inner) = element {
                element = inner;
            }
            base_name(element) + "Array"
        }
    }
}

/// The innermost simple name in lower camel case, a leading acronym in
/// lower case as a person writes it (`URL` → `url`, `CSVFormat` →
/// `csvFormat`); `object` when that is not an identifier (an anonymous
/// class `Foo$1`).
fn class_base_name(java_name: &str) -> String {
    let simple = java_name.rsplit('.').next().unwrap_or(java_name);
    let chars: Vec<char> = simple.chars().collect();
    match chars.first() {
        Some(first) if first.is_alphabetic() || *first == '_' || *first == '$' => {
            let upper = chars.iter().take_while(|c| c.is_uppercase()).count().max(1);
            // The last capital of an acronym starts the next word (`CSVFormat`).
            let acronym =
                if upper > 1 && chars.get(upper).is_some_and(|c| c.is_lowercase()) { upper - 1 } else { upper };
            chars[..acronym].iter().flat_map(|c| c.to_lowercase()).chain(chars[acronym..].iter().copied()).collect()
        }
        _ => "object".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_are_named_after_their_type_with_a_counter_per_name() {
        let mut vars = Vars::default();
        let declared: Vec<String> = ["Ljava/util/Stack;", "Ljava/lang/String;", "I", "Ljava/lang/String;", "[I", "[[I"]
            .iter()
            .enumerate()
            .map(|(i, d)| vars.declare(VarId(i as u32), &FieldType::parse(d).unwrap()))
            .collect();
        assert_eq!(declared, ["stack0", "string0", "int0", "string1", "intArray0", "intArray1"]);
        assert_eq!(vars.name(VarId(3)), "string1");
        assert_eq!(vars.name(VarId(9)), "v9");
    }

    #[test]
    fn nested_and_odd_class_names_give_identifiers() {
        let names: Vec<String> =
            ["java.util.Map.Entry", "URL", "a.Foo.1", "_x", "a.$Proxy3", "a.CSVFormat", "IOUtils", "X", "ABc"]
                .iter()
                .map(|n| class_base_name(n))
                .collect();
        assert_eq!(names, ["entry", "url", "object", "_x", "$Proxy3", "csvFormat", "ioUtils", "x", "aBc"]);
    }
}
