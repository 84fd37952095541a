//! Reading one file: bytes → schema pass → serde model → lowered, validated IR.

use std::path::Path;

use crate::diag::{Diagnostic, Findings, LineIndex};
use crate::generations::{self, GenerationInfo};
use crate::ir;
use crate::schema::{self, Strictness};
use crate::{lower, model};

/// The result of reading one file: the IR when the file could be read at all, and every finding.
#[derive(Debug)]
pub struct ReadOutcome {
    pub isa: Option<ir::Isa>,
    pub generation: Option<&'static GenerationInfo>,
    pub findings: Vec<Diagnostic>,
}

impl ReadOutcome {
    pub fn has_errors(&self) -> bool {
        self.findings
            .iter()
            .any(|d| d.severity == crate::Severity::Error)
    }

    /// The IR if there were no errors, else the first error.
    pub fn into_result(
        self,
    ) -> Result<(ir::Isa, &'static GenerationInfo, Vec<Diagnostic>), Diagnostic> {
        if let Some(e) = self
            .findings
            .iter()
            .find(|d| d.severity == crate::Severity::Error)
        {
            return Err(e.clone());
        }
        match (self.isa, self.generation) {
            (Some(isa), Some(g)) => Ok((isa, g, self.findings)),
            _ => unreachable!("a read without errors has an IR and a generation"),
        }
    }
}

/// Reads and validates the file at `path`.
pub fn read_file(path: &Path, strictness: Strictness) -> ReadOutcome {
    match std::fs::read(path) {
        Ok(bytes) => read_bytes(&bytes, path, strictness),
        Err(err) => {
            let mut findings = Findings::new(path);
            findings.error(None, "", format!("cannot read file: {err}"));
            ReadOutcome {
                isa: None,
                generation: None,
                findings: findings.list,
            }
        }
    }
}

/// Reads and validates `bytes`, reporting findings against `path`.
pub fn read_bytes(bytes: &[u8], path: &Path, strictness: Strictness) -> ReadOutcome {
    let mut findings = Findings::new(path);
    let lines = LineIndex::new(bytes);
    let failed = |findings: Findings| ReadOutcome {
        isa: None,
        generation: None,
        findings: findings.list,
    };
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            findings.error(
                Some(lines.position(e.valid_up_to())),
                "",
                "the file is not UTF-8 text, so not AMD's XML",
            );
            return failed(findings);
        }
    };
    let locator = schema::walk(text, &lines, strictness, &mut findings);
    if findings.has_errors() {
        return failed(findings);
    }
    let spec: model::Spec = match quick_xml::de::from_str(text) {
        Ok(spec) => spec,
        Err(err) => {
            findings.error(
                None,
                "Spec",
                format!("structure does not match AMD's ISA schema: {err}"),
            );
            return failed(findings);
        }
    };
    let isa = lower::lower(&spec, &locator, &mut findings);
    let generation = generations::GENERATIONS
        .iter()
        .find(|g| g.architecture_name == isa.architecture_name);
    if generation.is_none() && !isa.architecture_name.is_empty() {
        let known: Vec<_> = generations::GENERATIONS
            .iter()
            .map(|g| g.architecture_name)
            .collect();
        findings.error(
            locator.get(schema::tracked::ARCHITECTURE, 0),
            "Architecture / ArchitectureName",
            format!(
                "unknown architecture `{}`; known: {} (a new generation needs a line in gen/src/generations.rs)",
                isa.architecture_name,
                known.join(", ")
            ),
        );
    }
    if let (Some(g), Some(file_name)) = (generation, path.file_name().and_then(|n| n.to_str())) {
        if let Some(by_name) = generations::generation_for_file(file_name) {
            if by_name.module != g.module {
                findings.warning(
                    None,
                    "Architecture / ArchitectureName",
                    format!(
                        "file is named {file_name} but declares `{}`",
                        isa.architecture_name
                    ),
                );
            }
        }
    }
    ReadOutcome {
        isa: Some(isa),
        generation,
        findings: findings.list,
    }
}
