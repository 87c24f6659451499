//! Static method dependence (Palus, Zhang et al. ISSTA 2011, section 3.2;
//! TECHNIQUES.md section 4 step 2): which fields of its class each method
//! reads and writes, and how strongly one method depends on another.
//!
//! [`field_accesses`] counts the `getfield`/`getstatic` (reads) and
//! `putfield`/`putstatic` (writes) of the class's own fields per method; a
//! call of one of the class's private methods or constructors adds the
//! callee's accesses to the caller's (transitively), since those are not
//! tested on their own.
//!
//! [`MethodDependence`] weighs the fields with tf-idf, each method being a
//! document and each field access a word: `tf(v, m)` is the share of `m`'s
//! accesses that touch `v`, `idf(v) = ln(N / df(v))` with `N` methods of
//! which `df(v)` access `v` (a field every method touches weighs 0).
//! Method `m_k` depends on `m_j` through the fields `m_k` reads that `m_j`
//! writes (write-read) or also reads (read-read); the relevance is the sum of
//! their weights for the dependent method:
//! `W(m_k, m_j) = sum over v in V(m_k, m_j) of tfidf(v, m_k)` (the paper's
//! equation in section 3.2).

use std::collections::{BTreeMap, BTreeSet};

use model::bytecode::{decode, op};
use model::classfile::ClassFile;

use crate::callgraph::FieldKey;
use crate::insn::member;

/// The field accesses of one method, counted, with those of the private
/// methods and constructors of the class it calls.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MethodFields {
    /// The method's name.
    pub name: String,
    /// Its descriptor.
    pub descriptor: String,
    /// Whether the method is private (its accesses count in its callers).
    pub private: bool,
    /// Reads of each field of the class: how many instructions.
    pub reads: BTreeMap<FieldKey, u32>,
    /// Writes of each field of the class: how many instructions.
    pub writes: BTreeMap<FieldKey, u32>,
}

impl MethodFields {
    /// How many times the method reads or writes `field`.
    pub fn accesses(&self, field: &FieldKey) -> u32 {
        self.reads.get(field).copied().unwrap_or(0) + self.writes.get(field).copied().unwrap_or(0)
    }

    fn total(&self) -> u32 {
        self.reads.values().chain(self.writes.values()).sum()
    }

    fn add(&mut self, other: &MethodFields) {
        for (f, n) in &other.reads {
            *self.reads.entry(f.clone()).or_default() += n;
        }
        for (f, n) in &other.writes {
            *self.writes.entry(f.clone()).or_default() += n;
        }
    }
}

/// The field accesses of every method of `cf` with code, in class-file
/// order, the private callees and constructors it calls merged in (each
/// callee once per caller, however often it is called; recursion is cut).
/// Methods whose code cannot be decoded have no accesses.
pub fn field_accesses(cf: &ClassFile) -> Vec<MethodFields> {
    let own: Vec<(MethodFields, BTreeSet<usize>)> = (0..cf.methods.len()).map(|k| direct(cf, k)).collect();
    (0..own.len())
        .map(|k| {
            let mut out = own[k].0.clone();
            let mut seen = BTreeSet::from([k]);
            let mut stack: Vec<usize> = own[k].1.iter().copied().collect();
            while let Some(c) = stack.pop() {
                if seen.insert(c) {
                    out.add(&own[c].0);
                    stack.extend(own[c].1.iter().copied());
                }
            }
            out
        })
        .collect()
}

/// The accesses of method `k` itself and the indices of the private methods
/// and constructors of the class it calls.
fn direct(cf: &ClassFile, k: usize) -> (MethodFields, BTreeSet<usize>) {
    let m = &cf.methods[k];
    let mut out = MethodFields {
        name: cf.member_name(m).to_string(),
        descriptor: cf.member_descriptor(m).to_string(),
        private: m.access & model::access::PRIVATE != 0,
        ..MethodFields::default()
    };
    let mut callees = BTreeSet::new();
    let Ok(Some(code)) = cf.code(m) else { return (out, callees) };
    let Ok(insns) = decode(&code.code) else { return (out, callees) };
    for insn in &insns {
        let Some(r) = member(&cf.constant_pool, insn).filter(|r| r.owner == cf.name()) else { continue };
        let key = || FieldKey { name: r.name.to_string(), descriptor: r.descriptor.to_string() };
        match insn.opcode {
            op::GETFIELD | op::GETSTATIC => *out.reads.entry(key()).or_default() += 1,
            op::PUTFIELD | op::PUTSTATIC => *out.writes.entry(key()).or_default() += 1,
            op::INVOKESPECIAL | op::INVOKEVIRTUAL | op::INVOKESTATIC => {
                let callee = cf.methods.iter().position(|c| {
                    cf.member_name(c) == r.name
                        && cf.member_descriptor(c) == r.descriptor
                        && (c.access & model::access::PRIVATE != 0 || r.name == "<init>")
                });
                callees.extend(callee.filter(|&c| c != k));
            }
            _ => {}
        }
    }
    (out, callees)
}

/// The tf-idf weighted dependence between the methods of one class.
#[derive(Debug, Clone)]
pub struct MethodDependence {
    /// The methods, as given.
    pub methods: Vec<MethodFields>,
    /// `weights[k][j] = W(m_k, m_j)`: how much `m_k` depends on `m_j` (0
    /// on the diagonal).
    pub weights: Vec<Vec<f64>>,
}

impl MethodDependence {
    /// The dependence among `methods` (the documents of tf-idf: pass the
    /// methods under test, their private callees already merged).
    pub fn new(methods: Vec<MethodFields>) -> MethodDependence {
        let n = methods.len();
        let mut df: BTreeMap<&FieldKey, usize> = BTreeMap::new();
        for m in &methods {
            for f in m.reads.keys().chain(m.writes.keys()).collect::<BTreeSet<_>>() {
                *df.entry(f).or_default() += 1;
            }
        }
        let tfidf = |m: &MethodFields, f: &FieldKey| -> f64 {
            let total = m.total();
            let docs = df.get(f).copied().unwrap_or(0);
            if total == 0 || docs == 0 {
                return 0.0;
            }
            f64::from(m.accesses(f)) / f64::from(total) * (n as f64 / docs as f64).ln()
        };
        let weights = (0..n)
            .map(|k| {
                (0..n)
                    .map(|j| {
                        if j == k {
                            return 0.0;
                        }
                        let (dependent, other) = (&methods[k], &methods[j]);
                        // V(m_k, m_j): write-read and read-read fields.
                        dependent
                            .reads
                            .keys()
                            .filter(|f| other.writes.contains_key(*f) || other.reads.contains_key(*f))
                            .map(|f| tfidf(dependent, f))
                            .sum()
                    })
                    .collect()
            })
            .collect();
        MethodDependence { methods, weights }
    }

    /// The fields through which `m_k` depends on `m_j`: those `m_k` reads
    /// and `m_j` writes (write-read), and those both read that `m_j` does
    /// not write (read-read).
    pub fn relation(&self, k: usize, j: usize) -> (Vec<&FieldKey>, Vec<&FieldKey>) {
        let (dependent, other) = (&self.methods[k], &self.methods[j]);
        let write_read = dependent.reads.keys().filter(|f| other.writes.contains_key(*f)).collect();
        let read_read =
            dependent.reads.keys().filter(|f| !other.writes.contains_key(*f) && other.reads.contains_key(*f)).collect();
        (write_read, read_read)
    }

    /// The methods that depend on method `j`, with their relevance, most
    /// relevant first (ties in method order), zero weights left out: the
    /// candidates to call after `j`, drawn by relevance.
    pub fn dependents_of(&self, j: usize) -> Vec<(usize, f64)> {
        let mut out: Vec<(usize, f64)> =
            (0..self.methods.len()).map(|k| (k, self.weights[k][j])).filter(|(_, w)| *w > 0.0).collect();
        out.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::compile;

    const ACCOUNT: &str = r#"
public class Account {
    private int balance;
    private boolean open;
    private int audits;
    private String owner;

    public Account(String owner) { this.owner = owner; }
    public void open() { open = true; }
    public void deposit(int x) { if (open) { balance += x; } }
    public int balance() { return balance; }
    public void close() { audit(); open = false; }
    private void audit() { audits++; }
    public String owner() { return owner; }
}
"#;

    fn methods() -> Vec<MethodFields> {
        let classes = compile(&[("Account.java", ACCOUNT)]);
        field_accesses(&classes["Account"])
    }

    fn by_name<'a>(ms: &'a [MethodFields], name: &str) -> &'a MethodFields {
        ms.iter().find(|m| m.name == name).unwrap()
    }

    fn key(name: &str, descriptor: &str) -> FieldKey {
        FieldKey { name: name.into(), descriptor: descriptor.into() }
    }

    #[test]
    fn reads_and_writes_are_counted_with_private_callees_merged() {
        let ms = methods();
        let deposit = by_name(&ms, "deposit");
        assert_eq!(deposit.reads, BTreeMap::from([(key("balance", "I"), 1), (key("open", "Z"), 1)]));
        assert_eq!(deposit.writes, BTreeMap::from([(key("balance", "I"), 1)]));
        let close = by_name(&ms, "close");
        // audit() is private: its read and write of `audits` count in close().
        assert_eq!(close.reads, BTreeMap::from([(key("audits", "I"), 1)]));
        assert_eq!(close.writes, BTreeMap::from([(key("audits", "I"), 1), (key("open", "Z"), 1)]));
        assert!(by_name(&ms, "audit").private);
    }

    #[test]
    fn relevance_is_the_tf_idf_of_the_shared_fields_for_the_dependent_method() {
        let public: Vec<MethodFields> = methods().into_iter().filter(|m| !m.private).collect();
        let names: Vec<&str> = public.iter().map(|m| m.name.as_str()).collect();
        let at = |name: &str| names.iter().position(|n| *n == name).unwrap();
        let d = MethodDependence::new(public.clone());
        // 6 methods (<init>, open, deposit, balance, close, owner). deposit
        // reads `open` (written by open(): write-read) and `balance`; it has
        // 3 accesses; `open` is accessed by 3 methods (open, deposit, close).
        let expected = 1.0 / 3.0 * (6.0f64 / 3.0).ln();
        assert!((d.weights[at("deposit")][at("open")] - expected).abs() < 1e-12, "{:?}", d.weights);
        // balance() reads `balance`, which deposit writes (its only access;
        // 2 methods access `balance`).
        assert!((d.weights[at("balance")][at("deposit")] - (6.0f64 / 2.0).ln()).abs() < 1e-12);
        // deposit depends on open() write-read (`open`) and on balance()
        // read-read (`balance`, which balance() only reads).
        let (wr, _) = d.relation(at("deposit"), at("open"));
        assert_eq!(wr, [&key("open", "Z")]);
        let (wr, rr) = d.relation(at("deposit"), at("balance"));
        assert!(wr.is_empty());
        assert_eq!(rr, [&key("balance", "I")]);
        // open() reads nothing: it depends on no method.
        assert!(d.weights[at("open")].iter().all(|w| *w == 0.0));
        // After deposit: balance() (reads what deposit writes) is the most relevant.
        assert_eq!(d.dependents_of(at("deposit"))[0].0, at("balance"));
        assert!(d.dependents_of(at("owner")).is_empty(), "nothing reads owner besides owner()");
    }
}
