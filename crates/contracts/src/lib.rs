//! Palus's contracts oracle (Zhang, Saff, Bu, Ernst: "Combined static and
//! dynamic automated test generation", ISSTA 2011; TECHNIQUES.md §4 item
//! 4; Randoop's `ObjectContracts`): the contracts of `java.lang.Object`
//! and `java.lang.Comparable`, checked on every object the generated tests
//! create, as a [`generate::Technique`] named `contracts` (findings of
//! kind `contract`).
//!
//! # Contracts
//!
//! On an object `x` of a class of the user's class path (the class under
//! test, its nested classes, any other non-JDK class), for the methods the
//! class has from the user's code ([`facts`]: a class that keeps
//! `Object`'s `equals`, `hashCode` or `toString`, or has them from a JDK
//! superclass, has nothing to check for them):
//!
//! - `x.equals(x)` is true; `x.equals(null)` is false; `equals`,
//!   `hashCode()` and `toString()` throw nothing;
//! - for two objects `x`, `y` of one class in one test: `x.equals(y)`
//!   implies `x.hashCode() == y.hashCode()`, and equals `y.equals(x)`;
//! - for a `Comparable` class: `x.compareTo(x) == 0`,
//!   `sgn(x.compareTo(y)) == -sgn(y.compareTo(x))`, and (recommended only,
//!   so reported with confidence 0.4) `x.compareTo(y) == 0` exactly when
//!   `x.equals(y)`. `compareTo` may throw (`Comparable` names its
//!   exceptions).
//!
//! # Design
//!
//! **Stage 7** ([`generate::Technique::oracle`], after the regression
//! assertions). For each minimised test, [`probe::plan`] takes its *base*
//! (its statements before the one it throws at, without assertions), the
//! objects to check (values whose static type may hold an object of a
//! user's class: a user's class, `Object`, a JDK interface or abstract
//! class; at most 6), and the checks, appended as ordinary statements:
//! calls of `Object.equals`/`hashCode`/`toString` (dispatched to the
//! class's own) and of the `compareTo` the class declares. Random tests
//! seldom make two equal objects, so up to 3 objects made by a constructor
//! or static call get a *twin*: that call and the calls made on the object
//! afterwards, repeated with the same arguments. The probes run on the
//! coverage workers in batches of 16; a check that throws ends its probe,
//! so a test runs again with the checks after it (at most 4 rounds).
//! [`judge`] reads the outcomes with the runtime class of every object:
//! only objects of a user's class, only methods it has from the user's
//! code, only pairs of one runtime class; an exception that came out of a
//! contract method of another class (an element's `hashCode` called by a
//! container's), or for `equals` out of any other class's code (the
//! argument's `getValue()`), is not the receiver's violation
//! ([`judge::thrown_elsewhere`]). Contracts are about what a client of a
//! class sees, so only tests within the public API are checked (and
//! reported, [`probe::within_public_api`]): a test that calls a method or
//! constructor, or writes a field, that is not public or is named on a
//! class that is not (tests in the class's package may) breaks invariants
//! the class's own code keeps (`list.removeNode(new Node())`,
//! `builder.buffer = new char[2]`, `new FlatMapEntry(map, 109656967)`); so
//! does an inner object with a `null` outer instance, which a worker makes
//! through JNI and Java source cannot (`((Outer) null).new Inner()`
//! throws). A class that is only ever made that way is not checked. Per broken (class, contract) the
//! violation of the shortest test is kept and its *witness* built
//! ([`witness`]): the base with the checks of the violation appended and
//! assertions that pin what they did (`boolean b = x.equals(x);
//! assertFalse(b)`, the exception `toString` throws as a `Throws` that ends
//! the test, `assertNotEquals(h0, h1)` for hash codes), run once more (kept
//! only when it shows the same), then made smaller by dropping statements
//! it does not need (one run per try). Witnesses are appended to the
//! suite: verification compiles and runs them like every other test and
//! removes their assertions if they fail under JUnit.
//!
//! **After verification** ([`generate::Technique::findings`]). A finding
//! per witness still in the final suite with all its assertions (matched
//! by content, [`suite::carries`]); the pipeline then moves it into
//! `<Class>_FerroFindingsTest`, so the regression suite never asserts a
//! violation as correct. Tests of the suite that show a violation by
//! themselves (a search test that expects `toString` to throw, or asserts
//! `x.equals(x)` false: [`suite::shown`]) run once more for their stack
//! traces (until the class's end) and are more witnesses of the same
//! (class, contract), or findings of their own; one whose exception came
//! from elsewhere is a witness of that class's finding if there is one.
//! A finding says the contract and the objects ("equals is not reflexive:
//! x.equals(x) is false for a Foo made by Foo(int)"), its `method` is the
//! contract method (`equals(Ljava/lang/Object;)Z`), its location the
//! innermost frame in a user's class when a check threw, else the first
//! line of the method; its confidence is [`contract::confidence`] (halved
//! for a `null` argument anywhere in the making of an object, a class that
//! is not public, an exception out of another class's code, and an
//! `UnsupportedOperationException`).
//!
//! **Budget.** The oracle runs after mutation analysis; it stops sending
//! probes, and stops making witnesses smaller, after an eighth of the time
//! left before verification's deadline (nothing is cut without a time
//! budget, so `--evaluations N --seed S` stays reproducible).
//! `report.json`'s `techniques.contracts` counts `tests_checked`,
//! `objects_checked` (objects of a user's class), `checks` (checks that
//! ended), `executions`, `violations` (distinct class and contract),
//! `witnesses`, `findings` and `seconds`.
//!
//! # Modules
//!
//! - [`contract`]: the contracts, their methods and confidence.
//! - [`facts`]: which contract methods a class has from the user's code; locations.
//! - [`probe`]: plans, probes and reading their runs.
//! - [`judge`]: violations from outcomes (pure).
//! - [`witness`]: witness tests, whether a run shows them, making them smaller.
//! - [`describe`]: the words of findings: how objects were made, messages.
//! - [`suite`]: witnesses and violations in the final suite.
//! - [`technique`]: [`Contracts`], the technique.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod contract;
pub mod describe;
pub mod facts;
pub mod judge;
pub mod probe;
pub mod suite;
pub mod technique;
pub mod witness;

#[cfg(test)]
mod testutil;

pub use technique::{Contracts, FINDING_KIND};
