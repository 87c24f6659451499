//! Inputs in a format the class path's own encoder writes (issue 11: xz's
//! `SeekableXZInputStream` stayed at 1% of its branches on temporary files
//! of text, since a decoder stops at its first check on anything its
//! encoder did not write). `codec.FrameReader` (`testdata/encoded`) reads
//! frames only `codec.FrameOutputStream`, an `OutputStream` of the same jar,
//! writes: the branches behind its magic number and checksum are covered,
//! and the emitted tests show the encoder at work. (The sides that need a
//! corrupt frame, a bad length or checksum after the right magic number,
//! stay uncovered: the encoder never writes one and random bytes never
//! start with the magic number.)

mod util;

#[test]
fn a_decoder_reads_what_the_encoder_of_its_jar_wrote() {
    let tmp = tempfile::tempdir().unwrap();
    let jar = util::testdata_jar(tmp.path(), "encoded");
    let out = tmp.path().join("out");
    let class = util::generate_ok(&jar, "codec.FrameReader", &out, &["--evaluations", "3000", "--seed", "1"]);
    let uncovered = util::uncovered_goals(&class);
    let behind_the_checks = [
        "readInt() == 1179798833) true",
        "checksum(bytes)) true",
        "text.length() <= 8) true",
        "text.length() <= 8) false",
        "level <= 3) true",
        "level <= 3) false",
    ];
    for goal in behind_the_checks {
        assert!(!uncovered.iter().any(|u| u.ends_with(goal)), "`{goal}` is not covered: {class}");
    }
    let suite = std::fs::read_to_string(out.join("codec/FrameReader_FerroTest.java")).unwrap();
    for shown in ["new FileOutputStream(file", "new FrameOutputStream(", ".close();", "FrameReader.readFile(file"] {
        assert!(suite.contains(shown), "{shown} is not in the suite:\n{suite}");
    }
}
