//! Memory instructions as LLVM prints them: address operands and cache / addressing modifiers.

use alloc::string::String;

use super::operand::{named_value, predefined};
use crate::decode::Decoded;
use crate::tables::{FieldDef, OperandTypeDef};

/// An address operand spelled differently from a plain register, or `None`.
pub(super) fn address(
    d: &Decoded,
    field: &FieldDef,
    ty: &'static OperandTypeDef,
    value: u64,
) -> Option<String> {
    // Buffer addresses: one VGPR per enabled index/offset (`IDXEN`, `OFFEN`), `off` for none.
    if let (Some(idxen), Some(offen)) = (d.field("IDXEN"), d.field("OFFEN")) {
        if field.name == "VADDR" {
            let regs = (idxen + offen) as u16;
            if regs == 0 {
                return Some(String::from("off"));
            }
            if let Some(p) = predefined(d.isa, ty, value as i64) {
                return Some(named_value(p.name, 32 * regs));
            }
        }
    }
    None
}

/// Modifiers of memory instructions after the operands.
pub(super) fn modifiers(_d: &Decoded, _s: &mut String) {}
