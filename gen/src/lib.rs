//! `amdgpu-isa-gen`: reads AMD's machine-readable GPU ISA XML, validates it, lowers it into an
//! IR and emits the Rust tables of the `amdgpu-isa` crate.
//!
//! Pipeline: [`schema`] (well-formedness, vocabulary, positions) → [`model`] (serde, AMD's
//! element names) → [`lower`] (validation, references resolved) → [`ir`] → [`emit`] (Rust).

pub mod diag;
pub mod emit;
pub mod generations;
pub mod ir;
pub mod lower;
pub mod model;
pub mod oracle;
pub mod read;
pub mod schema;
pub mod xml_dir;

pub use diag::{Diagnostic, Position, Severity};
pub use generations::{GENERATIONS, GenerationInfo, find_generation};
pub use read::{ReadOutcome, read_bytes, read_file};
pub use schema::Strictness;

/// Counts shown by `amdgpu-isa stats`, taken from the IR.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    pub instructions: usize,
    pub encodings: usize,
    pub instruction_encodings: usize,
    pub operand_types: usize,
    pub data_formats: usize,
}

impl Counts {
    pub fn of(isa: &ir::Isa) -> Counts {
        Counts {
            instructions: isa.instructions.len(),
            encodings: isa.encodings.len(),
            instruction_encodings: isa.instructions.iter().map(|i| i.encodings.len()).sum(),
            operand_types: isa.operand_types.len(),
            data_formats: isa.data_formats.len(),
        }
    }
}
