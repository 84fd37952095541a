//! Scalar immediates as LLVM prints them.

use alloc::string::String;
use core::fmt::Write as _;

use crate::decode::Decoded;
use crate::tables::OperandTypeDef;

/// A field value without a name: an immediate.
pub(super) fn immediate(_d: &Decoded, _ty: &OperandTypeDef, value: u64) -> String {
    let mut s = String::new();
    let _ = write!(s, "0x{value:x}");
    s
}
