//! Vector ALU modifiers as LLVM prints them: abs/neg, op_sel, clamp, omod, DPP and SDWA controls.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write as _;

use super::{Extension, extension, source_index};
use crate::decode::Decoded;

/// `-|v2|` and friends from the VOP3 `NEG` / `ABS` bits (and DPP's `SRCn_NEG` / `SRCn_ABS`).
pub(super) fn with_abs_neg(d: &Decoded, index: u32, text: String) -> String {
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

/// Modifiers after the operands, in LLVM's order.
pub(super) fn modifiers(d: &Decoded, s: &mut String, packed: bool, sources: u32) {
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
