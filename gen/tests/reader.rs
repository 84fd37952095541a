//! The reader on a small synthetic file and on broken variants of it: every bad input gives a
//! clear error naming file, position and element, and nothing panics.

use std::path::{Path, PathBuf};

use amdgpu_isa_gen::ir::{Expr, OpKind};
use amdgpu_isa_gen::oracle::XorShift;
use amdgpu_isa_gen::{Diagnostic, ReadOutcome, Severity, Strictness, read_bytes};

fn fixture() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mini.xml"))
        .unwrap()
}

fn path() -> PathBuf {
    PathBuf::from("mini.xml")
}

fn read(text: &str, strictness: Strictness) -> ReadOutcome {
    read_bytes(text.as_bytes(), &path(), strictness)
}

fn errors(outcome: &ReadOutcome) -> Vec<&Diagnostic> {
    outcome
        .findings
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect()
}

/// The 1-based line of the first occurrence of `needle` in the fixture.
fn line_of(text: &str, needle: &str) -> u32 {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle} in fixture"));
    text[..at].matches('\n').count() as u32 + 1
}

fn only_error(outcome: &ReadOutcome) -> &Diagnostic {
    let errs = errors(outcome);
    assert_eq!(errs.len(), 1, "exactly one error expected, got: {errs:#?}");
    assert_eq!(errs[0].file, path());
    errs[0]
}

#[test]
fn fixture_reads_clean_and_lowers() {
    let outcome = read(&fixture(), Strictness::Strict);
    assert!(outcome.findings.is_empty(), "{:#?}", outcome.findings);
    assert_eq!(outcome.generation.unwrap().module, "cdna3");
    let isa = outcome.isa.unwrap();
    assert_eq!(isa.architecture_id, 2);
    assert_eq!(isa.encodings.len(), 1);
    let enc = &isa.encodings[0];
    assert_eq!(enc.bit_count, 32);
    assert_eq!(enc.identifiers.len(), 2);
    assert_eq!(enc.fields[enc.opcode_field.unwrap()].name, "OP");
    let src = enc.fields.iter().find(|f| f.name == "SRC").unwrap();
    assert_eq!(src.ranges.len(), 2);
    assert_eq!(
        (
            src.ranges[0].offset,
            src.ranges[0].width,
            src.ranges[0].padding_width
        ),
        (0, 4, 1)
    );
    assert_eq!((src.ranges[1].offset, src.ranges[1].width), (16, 4));
    assert_eq!(src.value_bits(), 9);
    // The condition tree is kept as AMD writes it.
    let Expr::Op {
        op: OpKind::Ne,
        args,
        ty,
    } = &enc.conditions[0].expr
    else {
        panic!("{:?}", enc.conditions[0].expr)
    };
    assert_eq!(ty.unwrap().bits, 1);
    assert_eq!(args[1], Expr::Lit(255));
    let Expr::Op {
        op: OpKind::FieldDeref,
        args: deref,
        ..
    } = &args[0]
    else {
        panic!()
    };
    assert_eq!(deref[1], Expr::Id("SRC".into()));
    assert_eq!(isa.instructions.len(), 2);
    assert!(isa.instructions[1].flags.is_branch);
    assert_eq!(isa.instructions[1].aliases, ["T_UNO"]);
    let op = &isa.instructions[0].encodings[0].operands[0];
    assert_eq!(op.field, Some(2));
    assert!(op.input && !op.output && !op.implicit && op.binary_microcode_required);
}

#[test]
fn truncated_file() {
    let text = fixture();
    let cut = &text[..text.len() / 2];
    let outcome = read(cut, Strictness::Strict);
    let e = only_error(&outcome);
    assert!(
        e.message.contains("unexpected end of file") || e.message.contains("malformed"),
        "{e}"
    );
    assert!(e.position.is_some(), "{e}");
    assert!(outcome.isa.is_none());
}

#[test]
fn not_xml() {
    for junk in [
        "hello, this is a text file\n",
        "{\"json\": true}",
        "",
        "<html><body>hi</body></html>",
    ] {
        let outcome = read(junk, Strictness::Lenient);
        let e = only_error(&outcome);
        assert!(e.to_string().starts_with("mini.xml"), "{e}");
    }
    let outcome = read_bytes(&[0xff, 0xfe, 0x00, 0x3c], &path(), Strictness::Strict);
    let e = only_error(&outcome);
    assert!(e.message.contains("UTF-8"), "{e}");
}

#[test]
fn mismatched_tags_name_the_position() {
    let text = fixture().replace("</InstructionName>", "</InstructionNam>");
    let outcome = read(&text, Strictness::Strict);
    let e = only_error(&outcome);
    assert_eq!(
        e.position.unwrap().line,
        line_of(&text, "</InstructionNam>"),
        "{e}"
    );
}

#[test]
fn broken_operand_type_reference() {
    let text = fixture().replace(
        "<OperandType>OPR_SREG</OperandType>",
        "<OperandType>OPR_NOPE</OperandType>",
    );
    let outcome = read(&text, Strictness::Strict);
    let e = only_error(&outcome);
    assert!(e.message.contains("OPR_NOPE"), "{e}");
    assert!(
        e.element.contains("Instruction T_ZERO") && e.element.contains("Operand 1"),
        "{e}"
    );
    assert_eq!(
        e.position.unwrap().line,
        line_of(&text, "<Operand Input"),
        "{e}"
    );
}

#[test]
fn broken_encoding_and_field_references() {
    let text = fixture().replacen(
        "<EncodingName>ENC_TINY</EncodingName>\n                        <EncodingCondition>",
        "<EncodingName>ENC_GONE</EncodingName>\n                        <EncodingCondition>",
        1,
    );
    let e = only_error(&read(&text, Strictness::Strict)).clone();
    assert!(e.message.contains("ENC_GONE"), "{e}");
    let text = fixture().replace(
        "<FieldName>SRC</FieldName>\n                                <DataFormatName>",
        "<FieldName>DST</FieldName>\n                                <DataFormatName>",
    );
    let e = only_error(&read(&text, Strictness::Strict)).clone();
    assert!(e.message.contains("`DST`"), "{e}");
    let text = fixture().replace("<DataFormatName>FMT_NUM_B32</DataFormatName>\n                                <OperandType>", "<DataFormatName>FMT_X</DataFormatName>\n                                <OperandType>");
    let e = only_error(&read(&text, Strictness::Strict)).clone();
    assert!(e.message.contains("FMT_X"), "{e}");
}

#[test]
fn unknown_architecture() {
    let text = fixture().replace("AMD CDNA 3", "AMD XDNA 9");
    let outcome = read(&text, Strictness::Strict);
    let e = only_error(&outcome);
    assert!(
        e.message.contains("AMD XDNA 9") && e.message.contains("AMD RDNA 3"),
        "{e}"
    );
    assert_eq!(e.position.unwrap().line, line_of(&text, "<Architecture>"));
}

#[test]
fn unknown_element_is_error_when_strict_warning_otherwise() {
    let text = fixture().replace(
        "<InstructionName>T_ONE</InstructionName>",
        "<InstructionName>T_ONE</InstructionName><Latency>4</Latency>",
    );
    let strict = read(&text, Strictness::Strict);
    let e = only_error(&strict);
    assert!(
        e.message.contains("<Latency>") && e.message.contains("<Instruction>"),
        "{e}"
    );
    assert_eq!(e.position.unwrap().line, line_of(&text, "<Latency>"));
    let lenient = read(&text, Strictness::Lenient);
    assert!(errors(&lenient).is_empty());
    assert_eq!(lenient.findings.len(), 1);
    assert_eq!(lenient.isa.unwrap().instructions.len(), 2);
}

#[test]
fn unknown_attribute_and_operator() {
    let text = fixture().replace(
        "<Encoding Order=\"0\">",
        "<Encoding Order=\"0\" Shiny=\"yes\">",
    );
    let e = only_error(&read(&text, Strictness::Strict)).clone();
    assert!(e.message.contains("Shiny"), "{e}");
    let text = fixture().replace("type=\"!=\"", "type=\"<=>\"");
    let e = only_error(&read(&text, Strictness::Strict)).clone();
    assert!(e.message.contains("<=>"), "{e}");
}

#[test]
fn bad_layouts_are_errors() {
    let text = fixture().replace(
        "<BitCount>4</BitCount>\n                                    <BitOffset>16</BitOffset>",
        "<BitCount>4</BitCount>\n                                    <BitOffset>30</BitOffset>",
    );
    let e = only_error(&read(&text, Strictness::Strict)).clone();
    assert!(e.message.contains("outside the 32-bit encoding"), "{e}");
    let text = fixture().replace(
        "<BitCount>4</BitCount>\n                                    <BitOffset>16</BitOffset>",
        "<BitCount>4</BitCount>\n                                    <BitOffset>8</BitOffset>",
    );
    let e = only_error(&read(&text, Strictness::Strict)).clone();
    assert!(e.message.contains("also part of field"), "{e}");
    let text = fixture().replace(
        "<BitCount>32</BitCount>\n                <EncodingIdentifierMask",
        "<BitCount>abc</BitCount>\n                <EncodingIdentifierMask",
    );
    let outcome = read(&text, Strictness::Strict);
    assert!(
        errors(&outcome).iter().any(|e| e.message.contains("`abc`")),
        "{:#?}",
        outcome.findings
    );
}

#[test]
fn identifier_outside_mask_is_a_warning() {
    let text = fixture().replace(
        "<EncodingIdentifier Radix=\"2\">10111110000000000000000100000000</EncodingIdentifier>",
        "<EncodingIdentifier Radix=\"2\">10111110000000000000000100000001</EncodingIdentifier>",
    );
    let outcome = read(&text, Strictness::Strict);
    assert!(errors(&outcome).is_empty(), "{:#?}", outcome.findings);
    assert!(
        outcome
            .findings
            .iter()
            .any(|d| d.message.contains("outside EncodingIdentifierMask"))
    );
}

/// Mutated copies of a file: deleted, duplicated and overwritten spans, swapped tag names.
fn mutations(base: &[u8], count: usize, seed: u64) -> impl Iterator<Item = Vec<u8>> + '_ {
    let mut rng = XorShift(seed);
    const JUNK: &[&[u8]] = &[
        b"<",
        b">",
        b"</",
        b"/>",
        b"\"",
        b"&",
        b"&amp;",
        b"0",
        b"-1",
        b"99999999999999999999999",
        b"<op type=\"==\">",
        b"\xff",
        b"TRUE",
        b"Radix=\"7\"",
    ];
    (0..count).map(move |_| {
        let mut v = base.to_vec();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(v.len());
            let len = 1 + rng.below(40).min(v.len() - at);
            match rng.below(4) {
                0 => {
                    v.drain(at..(at + len).min(v.len()));
                }
                1 => {
                    let span = v[at..(at + len).min(v.len())].to_vec();
                    v.splice(at..at, span);
                }
                2 => {
                    let junk = JUNK[rng.below(JUNK.len())];
                    v.splice(at..at, junk.iter().copied());
                }
                _ => {
                    let end = (at + len).min(v.len());
                    for b in &mut v[at..end] {
                        if b.is_ascii_digit() {
                            *b = b'0' + (rng.below(10) as u8);
                        }
                    }
                }
            }
        }
        v
    })
}

#[test]
fn mutated_files_never_panic() {
    let base = fixture().into_bytes();
    let mut with_errors = 0;
    for (i, m) in mutations(&base, 4000, 0x5eed_1234_abcd_0001).enumerate() {
        let outcome = std::panic::catch_unwind(|| read_bytes(&m, &path(), Strictness::Strict))
            .unwrap_or_else(|_| {
                panic!(
                    "reader panicked on mutation {i}: {}",
                    String::from_utf8_lossy(&m)
                )
            });
        for d in &outcome.findings {
            assert!(!d.message.is_empty());
            assert_eq!(d.file, path());
        }
        if outcome.has_errors() {
            with_errors += 1;
        } else {
            assert!(outcome.isa.is_some());
        }
    }
    // The mutations are not all harmless: most must be caught.
    assert!(
        with_errors > 2000,
        "only {with_errors} of 4000 mutations reported an error"
    );
}
