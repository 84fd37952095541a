//! One operand as LLVM prints it: registers and ranges, special registers, inline constants,
//! literals, 16-bit register halves.

use alloc::format;
use alloc::string::String;

use super::source_index;
use crate::decode::Decoded;
use crate::tables::{IsaDef, OperandDef, OperandTypeDef, PredefinedValueDef};

/// The implicit lane-mask operand LLVM prints (`vcc` in wave64, `vcc_lo` in wave32).
pub(super) fn implicit_vcc(d: &Decoded, o: &OperandDef) -> Option<String> {
    let ty = &d.isa.operand_types[usize::from(o.operand_type)];
    match ty.predefined {
        [only] if only.name.eq_ignore_ascii_case("vcc") => Some(String::from(
            if d.isa.generation.default_wave_size() == 32 {
                "vcc_lo"
            } else {
                "vcc"
            },
        )),
        _ => None,
    }
}

/// One operand as LLVM prints it.
pub(super) fn operand(d: &Decoded, op: &OperandDef) -> String {
    let isa = d.isa;
    let enc = d.encoding_def();
    let Some(field) = op.field.map(|f| &enc.fields[usize::from(f)]) else {
        return String::new();
    };
    let value = field.extract(d.bits());
    let df = &isa.data_formats[usize::from(op.data_format)];
    if field.name == "LITERAL" {
        return literal(value, op.size, df.data_type != "integer");
    }
    let ty = &isa.operand_types[usize::from(op.operand_type)];
    if let Some(text) = super::memory::address(d, field, ty, value) {
        return text;
    }
    // Lane masks are as wide as the wave.
    let size = if df.name.ends_with("M64") {
        d.isa.generation.default_wave_size() as u16
    } else {
        op.size
    };
    match predefined(isa, ty, value as i64) {
        Some(p) if size == 16 && d.isa.generation.llvm_true16() => match register(p.name) {
            Some(("v", index)) => vgpr_half(d, field.name, field.value_bits(), index),
            _ => named_value(p.name, size),
        },
        Some(p) if p.name.eq_ignore_ascii_case("SRC_LITERAL") => literal(
            d.field("LITERAL").unwrap_or(0),
            size,
            df.data_type != "integer",
        ),
        Some(p) => named_value(p.name, size),
        None => super::scalar::immediate(d, ty, value),
    }
}

/// A 16-bit VGPR operand as a register half: in 64-bit encodings `OP_SEL` picks the half (bit 3
/// for the destination, bit n for source n); in 32-bit ones an 8-bit register field's top bit
/// does (`v130` is `v2.h`).
fn vgpr_half(d: &Decoded, field: &str, field_bits: u32, index: u32) -> String {
    match d.field("OP_SEL") {
        Some(op_sel) => {
            let bit = source_index(field).unwrap_or(3);
            let half = if op_sel >> bit & 1 != 0 { "h" } else { "l" };
            format!("v{index}.{half}")
        }
        None if field_bits == 8 || index >= 128 => {
            let (index, half) = if index >= 128 {
                (index - 128, "h")
            } else {
                (index, "l")
            };
            format!("v{index}.{half}")
        }
        None => format!("v{index}.l"),
    }
}

/// A literal constant: hex, cut to the operand's size as LLVM does for 16-bit operands, and
/// written `lit(…)` when an inline constant would have encoded the same value.
fn literal(value: u64, size: u16, float: bool) -> String {
    let value = if size == 16 {
        value & 0xffff
    } else {
        value & 0xffff_ffff
    };
    if is_inline_constant(value, size, float) {
        format!("lit(0x{value:x})")
    } else {
        format!("0x{value:x}")
    }
}

/// Whether `value` is one of the hardware's inline constants for an operand of `size` bits.
fn is_inline_constant(value: u64, size: u16, float: bool) -> bool {
    let bits = if size == 16 { 16 } else { 32 };
    let sign_extended = if value >> (bits - 1) & 1 != 0 {
        value as i64 - (1i64 << bits)
    } else {
        value as i64
    };
    if (-16..=64).contains(&sign_extended) {
        return true;
    }
    if !float {
        return false;
    }
    const F32: [u64; 9] = [
        0x3f00_0000,
        0xbf00_0000,
        0x3f80_0000,
        0xbf80_0000,
        0x4000_0000,
        0xc000_0000,
        0x4080_0000,
        0xc080_0000,
        0x3e22_f983,
    ];
    const F16: [u64; 9] = [
        0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
    ];
    if size == 16 {
        F16.contains(&value)
    } else {
        F32.contains(&value)
    }
}

/// The predefined value `value` of `ty` or of one of its subtypes.
pub(super) fn predefined(
    isa: &'static IsaDef,
    ty: &'static OperandTypeDef,
    value: i64,
) -> Option<&'static PredefinedValueDef> {
    ty.predefined.iter().find(|p| p.value == value).or_else(|| {
        ty.subtypes.iter().find_map(|&s| {
            isa.operand_types[usize::from(s)]
                .predefined
                .iter()
                .find(|p| p.value == value)
        })
    })
}

/// A register or constant AMD names `name`, for an operand of `size` bits.
pub(super) fn named_value(name: &str, size: u16) -> String {
    let regs = u32::from(size).div_ceil(32).max(1);
    if let Some((class, index)) = register(name) {
        return if regs == 1 {
            format!("{class}{index}")
        } else {
            format!("{class}[{index}:{}]", index + regs - 1)
        };
    }
    let lower = name.to_ascii_lowercase();
    // 64-bit pairs of special registers print by their pair name (`vcc`, `exec`).
    if regs == 2 {
        if let Some(pair) = lower.strip_suffix("_lo") {
            return String::from(pair);
        }
    }
    lower
}

/// `v12` → ("v", 12); AMD's `acc12` is LLVM's `a12`, `TTMP3` is `ttmp3`.
pub(super) fn register(name: &str) -> Option<(&'static str, u32)> {
    let split = name.find(|c: char| c.is_ascii_digit())?;
    let (class, index) = name.split_at(split);
    let index: u32 = index.parse().ok()?;
    let class = match class.to_ascii_lowercase().as_str() {
        "v" => "v",
        "s" => "s",
        "acc" => "a",
        "ttmp" => "ttmp",
        _ => return None,
    };
    Some((class, index))
}
