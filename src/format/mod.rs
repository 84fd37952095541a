//! LLVM-syntax text for decoded instructions, as `llvm-mc -disassemble` prints it.
//!
//! Mnemonics: AMD's name in lower case, renamed where LLVM names the instruction differently
//! (`llvm_names`), with LLVM's encoding suffix. The suffix is derived from the tables: an
//! encoding whose condition is named `has_dpp…` or `has_sdwa` is a DPP or SDWA form of the
//! encoding its condition tests (`VOP1` for `VOP1_VOP_DPP`); a vector ALU instruction that has
//! both a 32-bit and a 64-bit base encoding gets `_e32` / `_e64`.

//!
//! Operands and modifiers are spelled by one module per kind of encoding: `operand` (registers,
//! constants, literals), `vector` (VALU modifiers, DPP, SDWA), `memory` (addresses and cache
//! controls), `scalar` (SOPP/SOPK immediates and their named forms).

mod memory;
mod operand;
mod scalar;
mod vector;

use alloc::string::String;
use alloc::vec::Vec;

use crate::decode::Decoded;
use crate::tables::{EncodingDef, Expr, ExprOp, InstructionDef, IsaDef};

/// How an encoding extends its base encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Extension {
    None,
    Dpp,
    Sdwa,
}

pub(crate) fn extension(enc: &EncodingDef) -> Extension {
    if enc.conditions.iter().any(|c| c.name.starts_with("has_dpp")) {
        Extension::Dpp
    } else if enc
        .conditions
        .iter()
        .any(|c| c.name.starts_with("has_sdwa"))
    {
        Extension::Sdwa
    } else {
        Extension::None
    }
}

/// The encoding a condition of `enc` tests fields of (`ENC_VOP1` for `VOP1_VOP_DPP`), else `enc`.
fn base_encoding(isa: &'static IsaDef, enc: &'static EncodingDef) -> &'static EncodingDef {
    fn first_ref(expr: &Expr) -> Option<&'static str> {
        match *expr {
            Expr::Op {
                op: ExprOp::FieldDeref,
                args:
                    [
                        Expr::Op {
                            args: [_, Expr::Id(e)],
                            ..
                        },
                        _,
                    ],
                ..
            } => Some(e),
            Expr::Op { args, .. } => args.iter().find_map(first_ref),
            _ => None,
        }
    }
    enc.conditions
        .iter()
        .find_map(|c| first_ref(&c.expr))
        .and_then(|name| isa.encoding_by_short_name(name))
        .unwrap_or(enc)
}

/// Width of an encoding without its literal field.
fn base_width(enc: &EncodingDef) -> u32 {
    let literal = enc.field("LITERAL").map_or(0, |f| f.value_bits());
    u32::from(enc.bits) - literal
}

/// Base widths (32, 64) of an instruction's plain (not DPP/SDWA) encodings.
fn has_both_widths(isa: &'static IsaDef, inst: &InstructionDef) -> bool {
    let mut widths = (false, false);
    for ie in inst.encodings {
        let enc = &isa.encodings[usize::from(ie.encoding)];
        if extension(enc) != Extension::None {
            continue;
        }
        match base_width(base_encoding(isa, enc)) {
            32 => widths.0 = true,
            64 => widths.1 = true,
            _ => {}
        }
    }
    widths.0 && widths.1
}

/// LLVM's encoding suffix for `d` (`_e32`, `_e64`, `_dpp`, `_e64_dpp`, `_sdwa` or nothing).
///
/// Two of LLVM's conventions, observed in llvm-mc 22's output: instructions without explicit
/// operands (`v_nop`) take no suffix, and DPP forms of an encoding without a destination field
/// (RDNA 3's VOPC) take none either.
pub fn suffix(d: &Decoded) -> &'static str {
    let inst = d.instruction_def();
    if inst.functional_group != "VALU" || d.variant_def().operands.iter().all(|o| o.implicit) {
        return "";
    }
    let enc = d.encoding_def();
    let base = base_encoding(d.isa, enc);
    let width = base_width(base);
    let has_destination = base.field("VDST").is_some() || base.field("SDST").is_some();
    match (extension(enc), width) {
        (Extension::Dpp, _) if !has_destination => "",
        (Extension::Dpp, 64) => "_e64_dpp",
        (Extension::Dpp, _) => "_dpp",
        (Extension::Sdwa, _) => "_sdwa",
        (Extension::None, 32) if has_both_widths(d.isa, inst) => "_e32",
        (Extension::None, 64) if has_both_widths(d.isa, inst) => "_e64",
        _ => "",
    }
}

/// LLVM's name for an instruction, without suffix: AMD's name in lower case unless
/// [`crate::llvm_names`] lists another.
pub fn llvm_name(d: &Decoded) -> String {
    match crate::llvm_names::lookup(d.isa.generation, d.name()) {
        Some(name) => String::from(name),
        None => d.name().to_ascii_lowercase(),
    }
}

/// The mnemonic LLVM prints for `d`.
pub fn mnemonic(d: &Decoded) -> String {
    let mut s = llvm_name(d);
    s.push_str(suffix(d));
    s
}

/// The whole instruction text: mnemonic, operands, then modifiers.
pub fn text(d: &Decoded) -> String {
    let mut s = mnemonic(d);
    let enc = d.encoding_def();
    let packed = enc.field("OP_SEL_HI").is_some();
    let mut operands: Vec<String> = Vec::new();
    let mut sources = 0u32;
    for o in d.variant_def().operands {
        if o.implicit {
            // LLVM writes the implicit VCC of VOPC / VOP2 carry forms as an operand.
            if let Some(vcc) = operand::implicit_vcc(d, o) {
                operands.push(vcc);
            }
            continue;
        }
        let Some(f) = o.field else { continue };
        let field = &enc.fields[usize::from(f)];
        let mut text = operand::operand(d, o);
        if o.input && !o.output {
            // Sources are numbered by their fields (SRC0, SRC1, SRC2; the literal stands for the
            // source that reads it) for the per-source modifier bits.
            let index = source_index(field.name).unwrap_or(sources);
            sources = sources.max(index + 1);
            if !packed {
                text = vector::with_abs_neg(d, index, text);
            }
        }
        operands.push(text);
    }
    if !operands.is_empty() {
        s.push(' ');
        s.push_str(&operands.join(", "));
    }
    vector::modifiers(d, &mut s, packed, sources);
    memory::modifiers(d, &mut s);
    s
}

/// `SRC1` → 1; the literal and VSRC fields follow their own numbering.
pub(crate) fn source_index(field: &str) -> Option<u32> {
    let digits = field
        .strip_prefix("SRC")
        .or_else(|| field.strip_prefix("VSRC"))?;
    digits.parse().ok()
}
