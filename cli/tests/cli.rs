//! The `amdgpu-isa` binary: stats against an independent count of AMD's XML, validate, info,
//! and clear errors for bad names and files.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use amdgpu_isa_gen::oracle;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_amdgpu-isa"))
        .args(args)
        .output()
        .expect("run amdgpu-isa")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

fn fixture() -> PathBuf {
    repo_root().join("gen/tests/fixtures/mini.xml")
}

fn value(out: &str, key: &str) -> usize {
    let line = out
        .lines()
        .find(|l| l.starts_with(&format!("{key}: ")))
        .unwrap_or_else(|| panic!("no `{key}:` in {out}"));
    line[key.len() + 2..].trim().parse().unwrap()
}

#[test]
fn stats_match_an_independent_count_of_the_xml() {
    for (g, path) in oracle::xml_files("stats_match_an_independent_count_of_the_xml", repo_root()) {
        let text = std::fs::read_to_string(&path).unwrap();
        for name in [g.module, g.llvm_targets[0]] {
            let o = run(&["stats", "--target", name]);
            assert!(o.status.success(), "{}", stderr(&o));
            let out = stdout(&o);
            assert!(
                out.starts_with(&format!("generation: {}", g.module)),
                "{out}"
            );
            assert_eq!(
                value(&out, "instructions"),
                text.matches("<Instruction>").count(),
                "{out}"
            );
            assert_eq!(
                value(&out, "encodings"),
                text.matches("<Encoding ").count(),
                "{out}"
            );
            assert_eq!(
                value(&out, "instruction encodings"),
                text.matches("<InstructionEncoding>").count()
            );
            assert_eq!(
                value(&out, "operand types"),
                text.matches("<OperandTypeName>").count(),
                "{out}"
            );
            assert_eq!(
                value(&out, "data formats"),
                text.matches("<DataFormat>").count(),
                "{out}"
            );
        }
    }
}

#[test]
fn stats_without_target_lists_every_built_generation() {
    let o = run(&["stats"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.lines()
            .filter(|l| l.starts_with("generation: "))
            .count()
            >= 1,
        "{out}"
    );
    assert!(out.contains("instructions: "), "{out}");
}

#[test]
fn unknown_target_lists_valid_names() {
    let o = run(&["stats", "--target", "gfx9999"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("gfx9999") && err.contains("gfx942") && err.contains("rdna3"),
        "{err}"
    );
}

#[test]
fn validate_clean_file_exits_zero() {
    let o = run(&["validate", fixture().to_str().unwrap()]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("0 error(s), 0 warning(s)"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn validate_reports_file_line_and_element() {
    let dir = std::env::temp_dir().join(format!("amdgpu-isa-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("broken.xml");
    let text = std::fs::read_to_string(fixture()).unwrap().replace(
        "<OperandType>OPR_SREG</OperandType>",
        "<OperandType>OPR_NOPE</OperandType>",
    );
    std::fs::write(&bad, &text).unwrap();
    let line = text[..text.find("<Operand Input").unwrap()]
        .matches('\n')
        .count()
        + 1;
    let o = run(&[
        "validate",
        bad.to_str().unwrap(),
        fixture().to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains(&format!("broken.xml:{line}:")), "{out}");
    assert!(
        out.contains("<Instruction T_ZERO / InstructionEncoding ENC_TINY / Operand 1>"),
        "{out}"
    );
    assert!(out.contains("1 error(s)"), "{out}");
    let missing = run(&["validate", dir.join("absent.xml").to_str().unwrap()]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        stdout(&missing).contains("absent.xml: error: cannot read file"),
        "{}",
        stdout(&missing)
    );
}

#[test]
fn validate_amds_files_has_only_warnings() {
    for (_, path) in oracle::xml_files("validate_amds_files_has_only_warnings", repo_root()) {
        let o = run(&["validate", path.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stdout(&o));
        assert!(
            stdout(&o).contains(" 0 error(s)") || stdout(&o).contains("\n0 error(s)"),
            "{}",
            stdout(&o)
        );
    }
}

#[test]
fn info_shows_encodings_and_operands() {
    let o = run(&["info", "v_mad_u16"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("V_MAD_U16"), "{out}");
    assert!(out.contains("encoding ENC_VOP3"), "{out}");
    assert!(out.contains("operand 1: VDST"), "{out}");
    let o = run(&["info", "v_no_such_thing"]);
    assert_eq!(o.status.code(), Some(2));
}
