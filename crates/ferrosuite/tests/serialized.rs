//! Inputs in a text format the class path's own serializer writes (issue
//! 11: a parser of YAML, JSON or CSV stops at its first check on random
//! strings). `records.RecordReader` (`testdata/serialized`) reads only what
//! `records.RecordWriter.write(Object)`, a static method of the same jar,
//! writes (a header with the body's checksum, then one line per entry or
//! element): the branches behind the checksum are covered, and the emitted
//! tests show the serializer called on a map or a list.

mod util;

#[test]
fn a_parser_reads_what_the_serializer_of_its_jar_wrote() {
    let tmp = tempfile::tempdir().unwrap();
    let jar = util::testdata_jar(tmp.path(), "serialized");
    let out = tmp.path().join("out");
    let class = util::generate_ok(&jar, "records.RecordReader", &out, &["--evaluations", "3000", "--seed", "1"]);
    let uncovered = util::uncovered_goals(&class);
    let behind_the_checksum = ["checksum(body.toString())) true", "entries > 1) true", "elements > 1) true"];
    for goal in behind_the_checksum {
        assert!(!uncovered.iter().any(|u| u.ends_with(goal)), "`{goal}` is not covered: {class}");
    }
    let suite = std::fs::read_to_string(out.join("records/RecordReader_FerroTest.java")).unwrap();
    for shown in ["RecordWriter.write(", "new StringReader(", ".read()"] {
        assert!(suite.contains(shown), "{shown} is not in the suite:\n{suite}");
    }
}
