//! AMD's real files (through AMDGPU_ISA_XML_DIR): they read without errors, every finding is a
//! known one (listed under tests/known_findings/), counts match an independent count of the XML,
//! and emission is deterministic.

use std::fmt::Write as _;
use std::path::Path;

use amdgpu_isa_gen::emit::{Prose, emit_generation};
use amdgpu_isa_gen::{Counts, Strictness, oracle, read_file};

fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

/// Findings without the directory part, one per line, as kept in tests/known_findings/<gen>.txt.
fn findings_text(outcome: &amdgpu_isa_gen::ReadOutcome) -> String {
    let mut s = String::new();
    for d in &outcome.findings {
        let mut d = d.clone();
        d.file = d.file.file_name().unwrap().into();
        writeln!(s, "{d}").unwrap();
    }
    s
}

#[test]
fn every_finding_in_amds_files_is_known() {
    let files = oracle::xml_files("every_finding_in_amds_files_is_known", repo_root());
    for (g, path) in files {
        let outcome = read_file(&path, Strictness::Strict);
        assert!(!outcome.has_errors(), "{}", findings_text(&outcome));
        let got = findings_text(&outcome);
        let known_path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("tests/known_findings/{}.txt", g.module));
        if std::env::var_os("AMDGPU_ISA_BLESS").is_some() {
            std::fs::write(&known_path, &got).unwrap();
            continue;
        }
        let known = std::fs::read_to_string(&known_path).unwrap_or_default();
        assert!(
            got == known,
            "findings for {} differ from {} (rerun with AMDGPU_ISA_BLESS=1 after checking):\n--- known\n{known}\n--- now\n{got}",
            g.file,
            known_path.display()
        );
    }
}

/// Counts elements by their opening tags, without any XML parser.
fn count(text: &str, tag: &str) -> usize {
    text.matches(tag).count()
}

#[test]
fn counts_match_an_independent_count() {
    for (g, path) in oracle::xml_files("counts_match_an_independent_count", repo_root()) {
        let text = std::fs::read_to_string(&path).unwrap();
        let (isa, _, _) = read_file(&path, Strictness::Lenient).into_result().unwrap();
        let c = Counts::of(&isa);
        assert_eq!(
            c.instructions,
            count(&text, "<Instruction>"),
            "{}",
            g.module
        );
        assert_eq!(
            c.encodings,
            count(&text, "<Encoding ") + count(&text, "<Encoding>"),
            "{}",
            g.module
        );
        assert_eq!(
            c.instruction_encodings,
            count(&text, "<InstructionEncoding>"),
            "{}",
            g.module
        );
        assert_eq!(
            c.operand_types,
            count(&text, "<OperandTypeName>"),
            "{}",
            g.module
        );
        assert_eq!(c.data_formats, count(&text, "<DataFormat>"), "{}", g.module);
        // Nothing the reader keeps is lost on the way: operands and identifiers too.
        let operands: usize = isa
            .instructions
            .iter()
            .flat_map(|i| &i.encodings)
            .map(|e| e.operands.len())
            .sum();
        assert_eq!(operands, count(&text, "<Operand "), "{}", g.module);
        let identifiers: usize = isa.encodings.iter().map(|e| e.identifiers.len()).sum();
        assert_eq!(
            identifiers,
            count(&text, "<EncodingIdentifier "),
            "{}",
            g.module
        );
        let fields: usize = isa.encodings.iter().map(|e| e.fields.len()).sum::<usize>()
            + isa
                .operand_types
                .iter()
                .map(|t| t.fields.len())
                .sum::<usize>();
        assert_eq!(
            fields,
            count(&text, "<Field IsConditional="),
            "{}",
            g.module
        );
        let predefined: usize = isa
            .operand_types
            .iter()
            .map(|t| {
                t.predefined.len() + t.fields.iter().map(|f| f.predefined.len()).sum::<usize>()
            })
            .sum();
        assert_eq!(
            predefined,
            count(&text, "<PredefinedValue>"),
            "{}",
            g.module
        );
        let aliases: usize = isa.instructions.iter().map(|i| i.aliases.len()).sum();
        let alias_blocks = text
            .split("<AliasedInstructionNames>")
            .skip(1)
            .map(|b| {
                count(
                    &b[..b.find("</AliasedInstructionNames>").unwrap()],
                    "<InstructionName>",
                )
            })
            .sum::<usize>();
        assert_eq!(aliases, alias_blocks, "{}", g.module);
        let conditions: usize = isa.encodings.iter().map(|e| e.conditions.len()).sum();
        let duplicate_conditions = isa.encodings.len(); // upper bound only; exact duplicates are findings
        assert!(conditions <= count(&text, "<EncodingCondition>\n") + duplicate_conditions);
    }
}

#[test]
fn emission_is_deterministic_and_prose_free_when_asked() {
    for (g, path) in oracle::xml_files("emission_is_deterministic", repo_root()) {
        let (isa, _, _) = read_file(&path, Strictness::Lenient).into_result().unwrap();
        let a = emit_generation(&isa, g, Prose::Omit).unwrap();
        let (isa2, _, _) = read_file(&path, Strictness::Lenient).into_result().unwrap();
        let b = emit_generation(&isa2, g, Prose::Omit).unwrap();
        assert!(a == b, "{}: two emissions differ", g.module);
        // No description text of AMD's ends up in the prose-free form.
        for inst in isa
            .instructions
            .iter()
            .filter(|i| i.description.len() > 40)
            .take(50)
        {
            assert!(
                !a.contains(inst.description.trim()),
                "{} description leaked into prose-free output",
                inst.name
            );
        }
        let with_prose = emit_generation(&isa, g, Prose::Include).unwrap();
        let sample = isa
            .instructions
            .iter()
            .find(|i| i.description.len() > 40 && !i.description.contains('\n'))
            .unwrap();
        assert!(
            with_prose.contains(sample.description.trim()),
            "descriptions missing from the rustdoc form"
        );
    }
}
