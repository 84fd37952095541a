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

/// A fresh directory for one test's files.
fn scratch_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("amdgpu-isa-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
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
    let dir = scratch_dir("cli");
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

/// Runs `llvm-mc-22 ARGS FILE` and returns its stdout.
fn llvm_mc(llvm: &Path, args: &[&str], file: &Path) -> String {
    let o = Command::new(llvm).args(args).arg(file).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

#[test]
fn disasm_byte_lists_like_llvm_mc() {
    let Some(llvm) = oracle::llvm_mc("disasm_byte_lists_like_llvm_mc") else {
        return;
    };
    let dir = scratch_dir("disasm");
    let input = dir.join("input.txt");
    // Scalar and vector forms, a literal equal to an inline constant, an undecodable word.
    std::fs::write(
        &input,
        "# comment\n0x01,0x00,0x85,0xbe\n[0x02,0x07,0x02,0x02] 0xff,0xff,0xff,0xff\n0xff,0x00,0x85,0xbe,0x00,0x00,0x80,0x3f\n",
    )
    .unwrap();
    for extra in [&[][..], &["--show-encoding"][..]] {
        let mut args = vec!["disasm", "--target", "gfx942"];
        args.extend_from_slice(extra);
        args.push(input.to_str().unwrap());
        let ours = run(&args);
        assert!(ours.status.success(), "{}", stderr(&ours));
        let mut llvm_args = vec!["-triple=amdgcn", "-mcpu=gfx942", "-disassemble"];
        if !extra.is_empty() {
            llvm_args.push("-show-encoding");
        }
        assert_eq!(stdout(&ours), llvm_mc(&llvm, &llvm_args, &input));
        // The undecodable word is reported with its line and column, as llvm-mc does.
        assert!(
            stderr(&ours).contains("input.txt:3:23: warning: invalid instruction encoding"),
            "{}",
            stderr(&ours)
        );
    }
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "0x01 // nope\n").unwrap();
    let o = run(&["disasm", "--target", "gfx942", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("bad.txt:1:6: error: invalid input token"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn disasm_reads_elf_code_objects() {
    let Some(llvm) = oracle::llvm_mc("disasm_reads_elf_code_objects") else {
        return;
    };
    let dir = scratch_dir("elf");
    let src = dir.join("code.s");
    std::fs::write(
        &src,
        "s_mov_b32 s5, s1\nv_add_f32_e32 v1, v2, v3\ns_add_u32 s2, s3, 0x12345678\ns_endpgm\n",
    )
    .unwrap();
    let obj = dir.join("code.o");
    let o = Command::new(&llvm)
        .args(["-triple=amdgcn", "-mcpu=gfx942", "-filetype=obj", "-o"])
        .arg(&obj)
        .arg(&src)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let ours = run(&["disasm", "--target", "gfx942", obj.to_str().unwrap()]);
    assert!(ours.status.success(), "{}", stderr(&ours));
    // llvm-mc's own disassembly of the assembled bytes is the expected text.
    let listing = llvm_mc(
        &llvm,
        &["-triple=amdgcn", "-mcpu=gfx942", "-show-encoding"],
        &src,
    );
    let bytes: Vec<String> = listing
        .lines()
        .filter_map(|l| {
            l.split_once("encoding: [")
                .map(|(_, b)| b.trim_end_matches(']').to_string())
        })
        .collect();
    let list = dir.join("code.txt");
    std::fs::write(&list, bytes.join("\n")).unwrap();
    let expected = llvm_mc(
        &llvm,
        &["-triple=amdgcn", "-mcpu=gfx942", "-disassemble"],
        &list,
    );
    assert_eq!(stdout(&ours), expected);
    let junk = dir.join("junk.o");
    std::fs::write(&junk, b"\x7fELF\x02\x01garbage").unwrap();
    let o = run(&["disasm", "--target", "gfx942", junk.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("junk.o: "), "{}", stderr(&o));
}
