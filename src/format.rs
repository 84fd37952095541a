//! LLVM-syntax text for decoded instructions, as `llvm-mc -disassemble` prints it.
//!
//! Mnemonics: AMD's name in lower case, renamed where LLVM names the instruction differently
//! (`llvm_names`), with LLVM's encoding suffix. The suffix is derived from the tables: an
//! encoding whose condition is named `has_dpp…` or `has_sdwa` is a DPP or SDWA form of the
//! encoding its condition tests (`VOP1` for `VOP1_VOP_DPP`); a vector ALU instruction that has
//! both a 32-bit and a 64-bit base encoding gets `_e32` / `_e64`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write as _;

use crate::decode::Decoded;
use crate::tables::{
    EncodingDef, Expr, ExprOp, InstructionDef, IsaDef, OperandDef, OperandTypeDef,
    PredefinedValueDef,
};

/// How an encoding extends its base encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Extension {
    None,
    Dpp,
    Sdwa,
}

fn extension(enc: &EncodingDef) -> Extension {
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
            if let Some(vcc) = implicit_vcc(d, o) {
                operands.push(vcc);
            }
            continue;
        }
        let Some(f) = o.field else { continue };
        let field = &enc.fields[usize::from(f)];
        let mut text = operand(d, o);
        if o.input && !o.output {
            // Sources are numbered by their fields (SRC0, SRC1, SRC2; the literal stands for the
            // source that reads it) for the per-source modifier bits.
            let index = source_index(field.name).unwrap_or(sources);
            sources = sources.max(index + 1);
            if !packed {
                text = with_abs_neg(d, index, text);
            }
        }
        operands.push(text);
    }
    if !operands.is_empty() {
        s.push(' ');
        s.push_str(&operands.join(", "));
    }
    modifiers(d, &mut s, packed, sources);
    s
}

/// `SRC1` → 1; the literal and VSRC fields follow their own numbering.
fn source_index(field: &str) -> Option<u32> {
    let digits = field
        .strip_prefix("SRC")
        .or_else(|| field.strip_prefix("VSRC"))?;
    digits.parse().ok()
}

/// `-|v2|` and friends from the VOP3 `NEG` / `ABS` bits (and DPP's `SRCn_NEG` / `SRCn_ABS`).
fn with_abs_neg(d: &Decoded, index: u32, text: String) -> String {
    let bit = |field: &str| d.field(field).is_some_and(|v| v >> index & 1 != 0);
    let named = |kind: &str| {
        d.field(&format!("SRC{index}_{kind}"))
            .is_some_and(|v| v != 0)
    };
    let abs = bit("ABS") || named("ABS");
    let neg = bit("NEG") || named("NEG");
    match (neg, abs) {
        (false, false) => text,
        (false, true) => format!("|{text}|"),
        (true, false) => format!("-{text}"),
        (true, true) => format!("-|{text}|"),
    }
}

/// The implicit lane-mask operand LLVM prints (`vcc` in wave64, `vcc_lo` in wave32).
fn implicit_vcc(d: &Decoded, o: &OperandDef) -> Option<String> {
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

/// Modifiers after the operands, in LLVM's order.
fn modifiers(d: &Decoded, s: &mut String, packed: bool, sources: u32) {
    let field = |name: &str| d.field(name);
    let list = |value: u64, n: u32| {
        let items: Vec<String> = (0..n).map(|i| format!("{}", value >> i & 1)).collect();
        items.join(",")
    };
    if packed {
        let n = sources.max(1);
        let all = (1u64 << n) - 1;
        if let Some(v) = field("OP_SEL").filter(|&v| v & all != 0) {
            let _ = write!(s, " op_sel:[{}]", list(v, n));
        }
        // op_sel_hi defaults to 1 for packed (two-component) sources and 0 for the others
        // (the mixed-precision FMA_MIX family); LLVM prints it when it differs.
        let default_hi = packed_sources(d, n);
        if let Some(v) = field("OP_SEL_HI").filter(|&v| v & all != default_hi) {
            let _ = write!(s, " op_sel_hi:[{}]", list(v, n));
        }
        if let Some(v) = field("NEG").filter(|&v| v & all != 0) {
            let _ = write!(s, " neg_lo:[{}]", list(v, n));
        }
        if let Some(v) = field("NEG_HI").filter(|&v| v & all != 0) {
            let _ = write!(s, " neg_hi:[{}]", list(v, n));
        }
    }
    if field("CLAMP").is_some_and(|v| v != 0) {
        s.push_str(" clamp");
    }
    match field("OMOD") {
        Some(1) => s.push_str(" mul:2"),
        Some(2) => s.push_str(" mul:4"),
        Some(3) => s.push_str(" div:2"),
        _ => {}
    }
    dpp(d, s);
}

/// Bit i set when source i's data format has two or more components (a packed source).
fn packed_sources(d: &Decoded, n: u32) -> u64 {
    let enc = d.encoding_def();
    let mut bits = 0u64;
    for o in d
        .variant_def()
        .operands
        .iter()
        .filter(|o| o.input && !o.output && !o.implicit)
    {
        let Some(f) = o.field else { continue };
        let Some(i) = source_index(enc.fields[usize::from(f)].name) else {
            continue;
        };
        if i < n && d.isa.data_formats[usize::from(o.data_format)].component_count >= 2 {
            bits |= 1 << i;
        }
    }
    bits
}

/// DPP controls: `dpp8:[…]` from the lane selects, or DPP16's control, masks and flags.
fn dpp(d: &Decoded, s: &mut String) {
    if extension(d.encoding_def()) != Extension::Dpp {
        return;
    }
    if d.field("LANE_SEL_0").is_some() {
        let lanes: Vec<String> = (0..8)
            .map(|i| format!("{}", d.field(&format!("LANE_SEL_{i}")).unwrap_or(0)))
            .collect();
        let _ = write!(s, " dpp8:[{}]", lanes.join(","));
        if d.field("FI").is_some_and(|v| v != 0) {
            s.push_str(" fi:1");
        }
        return;
    }
    if let Some(ctrl) = d.field("DPP_CTRL") {
        s.push(' ');
        s.push_str(&dpp_control(ctrl));
    }
    let _ = write!(
        s,
        " row_mask:0x{:x} bank_mask:0x{:x}",
        d.field("ROW_MASK").unwrap_or(0),
        d.field("BANK_MASK").unwrap_or(0)
    );
    if d.field("BOUND_CTRL").is_some_and(|v| v != 0) {
        s.push_str(" bound_ctrl:1");
    }
    if d.field("FI").is_some_and(|v| v != 0) {
        s.push_str(" fi:1");
    }
}

/// LLVM's spelling of a DPP16 control value.
fn dpp_control(ctrl: u64) -> String {
    match ctrl {
        0x000..=0x0ff => format!(
            "quad_perm:[{},{},{},{}]",
            ctrl & 3,
            ctrl >> 2 & 3,
            ctrl >> 4 & 3,
            ctrl >> 6 & 3
        ),
        0x101..=0x10f => format!("row_shl:{}", ctrl & 0xf),
        0x111..=0x11f => format!("row_shr:{}", ctrl & 0xf),
        0x121..=0x12f => format!("row_ror:{}", ctrl & 0xf),
        0x130 => String::from("wave_shl:1"),
        0x134 => String::from("wave_rol:1"),
        0x138 => String::from("wave_shr:1"),
        0x13c => String::from("wave_ror:1"),
        0x140 => String::from("row_mirror"),
        0x141 => String::from("row_half_mirror"),
        0x142 => String::from("row_bcast:15"),
        0x143 => String::from("row_bcast:31"),
        0x150..=0x15f => format!("row_share:{}", ctrl & 0xf),
        0x160..=0x16f => format!("row_xmask:{}", ctrl & 0xf),
        _ => format!("dpp_ctrl:0x{ctrl:x}"),
    }
}

/// One operand as LLVM prints it.
fn operand(d: &Decoded, op: &OperandDef) -> String {
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
    // Buffer addresses: one VGPR per enabled index/offset (`IDXEN`, `OFFEN`), `off` for none.
    if let (Some(idxen), Some(offen)) = (d.field("IDXEN"), d.field("OFFEN")) {
        if field.name == "VADDR" {
            let regs = (idxen + offen) as u16;
            if regs == 0 {
                return String::from("off");
            }
            if let Some(p) = predefined(isa, ty, value as i64) {
                return named_value(p.name, 32 * regs);
            }
        }
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
        None => immediate(ty, value),
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
fn predefined(
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
fn named_value(name: &str, size: u16) -> String {
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
fn register(name: &str) -> Option<(&'static str, u32)> {
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

/// A field value without a name: an immediate.
fn immediate(_ty: &OperandTypeDef, value: u64) -> String {
    let mut s = String::new();
    let _ = write!(s, "0x{value:x}");
    s
}
