//! AMD GPU instruction set tables, generated from AMD's machine-readable ISA XML.
//!
//! One module per generation (`cdna3`, `rdna3`, …; one cargo feature each) holds static tables of
//! encodings, instructions, operand types and data formats, an `Opcode` enum, typed encoders
//! (`encodings::EncVop1` and friends, with a constructor per instruction) and a `Semantics` trait.
//! [`Generation`] names the generations and resolves the names users type (`cdna3`, `CDNA 3`,
//! `gfx942`).
//!
//! ```
//! # #[cfg(feature = "cdna3")] {
//! use amdgpu_isa::cdna3::encodings::EncSop1;
//! let word = EncSop1::s_mov_b32().with_sdst(5).with_ssrc0(1); // s_mov_b32 s5, s1
//! assert_eq!(word.0.to_le_bytes(), [0x01, 0x00, 0x85, 0xbe]);
//! # }
//! ```
#![cfg_attr(not(feature = "std"), no_std)]

extern crate alloc;

pub mod decode;
#[cfg(feature = "std")]
pub mod disasm;
pub mod format;
pub mod llvm_names;
pub mod samples;
pub mod tables;

mod generation;
pub use generation::UnknownGeneration;

mod generations_table {
    include!(concat!(env!("OUT_DIR"), "/generations.rs"));
}
pub use generations_table::Generation;

include!(concat!(env!("OUT_DIR"), "/modules.rs"));
