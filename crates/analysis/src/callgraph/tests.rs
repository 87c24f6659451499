use std::collections::BTreeMap;
use std::sync::Arc;

use model::classfile::ClassFile;

use super::*;
use crate::testutil::compile;

const SOURCE: &str = r#"
import java.util.*;
class Box {
    private int size;
    private boolean open;
    private final List<String> items = new ArrayList<>();
    private String[] slots = new String[4];
    public void resize(int s) { if (s > 0) { size = s; } }
    public void grow(int by, int times) { setSize(size + by * times); }
    private void setSize(int s) { size = s; }
    public void close() { open = false; }
    public void put(String x) { if (x != null) items.add(x); }
    public void seat(int i, String x) { slots[i] = x; }
    public List<String> getItems() { return items; }
    public int size() { return size; }
}
"#;

fn classes() -> BTreeMap<String, Arc<ClassFile>> {
    compile(&[("Box.java", SOURCE)]).into_iter().map(|(k, v)| (k, Arc::new(v))).collect()
}

fn public_methods(cf: &ClassFile) -> Vec<(String, String)> {
    cf.methods
        .iter()
        .filter(|m| m.access & model::access::PUBLIC != 0 && cf.member_name(m) != "<init>")
        .map(|m| (cf.member_name(m).to_string(), cf.member_descriptor(m).to_string()))
        .collect()
}

fn field(name: &str, descriptor: &str) -> FieldKey {
    FieldKey { name: name.into(), descriptor: descriptor.into() }
}

#[test]
fn writers_are_ranked_by_inputs_path_length_and_guarding_branches() {
    let classes = classes();
    let source = |n: &str| classes.get(n).cloned();
    let mut acc = Accessors::new(&source);
    let candidates = public_methods(&classes["Box"]);
    let found = acc.writers("Box", &candidates, &field("size", "I"));
    let names: Vec<(&str, f64)> = found.iter().map(|a| (a.name.as_str(), a.score)).collect();
    // grow: 2 inputs over a path of 2 methods without branches = 1.0;
    // resize: 1 input, the write reachable from 1 of its 2 branch sides = 0.5.
    assert_eq!(names, [("grow", 1.0), ("resize", 0.5)]);
    assert_eq!(found[0].value_params, [0, 1]);
    assert_eq!(found[1].kind, WriteKind::Put);
    // A method writing a constant keeps the floor of n_v (0.5).
    let close = acc.writers("Box", &candidates, &field("open", "Z"));
    assert_eq!(close.iter().map(|a| (a.name.as_str(), a.score)).collect::<Vec<_>>(), [("close", 0.5)]);
}

#[test]
fn container_and_array_fields_are_written_through_their_elements() {
    let classes = classes();
    let source = |n: &str| classes.get(n).cloned();
    let mut acc = Accessors::new(&source);
    let candidates = public_methods(&classes["Box"]);
    let items = acc.writers("Box", &candidates, &field("items", "Ljava/util/List;"));
    assert_eq!(items.len(), 1, "{items:?}");
    assert_eq!(
        (items[0].name.as_str(), items[0].kind, items[0].value_params.as_slice()),
        ("put", WriteKind::Element, &[0][..])
    );
    let slots = acc.writers("Box", &candidates, &field("slots", "[Ljava/lang/String;"));
    assert_eq!(
        slots.iter().map(|a| (a.name.as_str(), a.value_params.clone())).collect::<Vec<_>>(),
        [("seat", vec![0, 1])]
    );
    let getters = acc.getters("Box", &candidates, &field("items", "Ljava/util/List;"));
    assert_eq!(getters.iter().map(|a| a.name.as_str()).collect::<Vec<_>>(), ["getItems"]);
}
