//! Example encodings of every instruction, built from the tables alone: identifier bits, operand
//! fields set from the operand types' predefined values (registers of the right size and
//! alignment, not zeros), and the fields an encoding condition tests set so that the condition
//! holds (`SRC0 == 255` for a literal form, `SRC0 == 250` for DPP). The differential tests feed
//! these to llvm-mc; they also make the "example" of an instruction's reference page.

use alloc::vec::Vec;

use crate::tables::{EncodingDef, Expr, ExprOp, FieldDef, IsaDef, OperandTypeDef};

/// One example: which instruction variant it encodes and its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sample {
    pub instruction: u16,
    pub encoding: u16,
    /// Index into the instruction's `encodings`.
    pub variant: u16,
    pub bits: u128,
    /// Length in bytes.
    pub len: usize,
}

impl Sample {
    pub fn bytes(&self) -> Vec<u8> {
        self.bits.to_le_bytes()[..self.len].to_vec()
    }
}

/// Samples for every instruction variant of `isa`; `flavour` picks other registers and values
/// (0, 1, 2, … give different operands).
pub fn samples(isa: &'static IsaDef, flavour: u32) -> Vec<Sample> {
    let mut out = Vec::new();
    for (i, inst) in isa.instructions.iter().enumerate() {
        for (v, ie) in inst.encodings.iter().enumerate() {
            let enc = &isa.encodings[usize::from(ie.encoding)];
            let Some(mut bits) = identifier(enc, ie.opcode) else {
                continue;
            };
            // Fields no instruction of this encoding uses as an operand: the `NULL` register where
            // another encoding's operands name one for the same field (RDNA 3 FLAT's SADDR must
            // read "off", not s0).
            for (fi, field) in enc.fields.iter().enumerate() {
                if !field_is_operand(isa, ie.encoding, fi) {
                    if let Some(null) = null_value(isa, field) {
                        bits = field.insert(bits, null);
                    }
                }
            }
            for op in ie.operands {
                let Some(f) = op.field else { continue };
                let field = &enc.fields[usize::from(f)];
                let ty = &isa.operand_types[usize::from(op.operand_type)];
                if let Some(value) = operand_value(ty, op.size, field, flavour) {
                    bits = field.insert(bits, value);
                }
            }
            // Literal fields get a value that is no inline constant.
            if let Some(lit) = enc.fields.iter().find(|f| f.name == "LITERAL") {
                bits = lit.insert(bits, 0x1234_5678 ^ u64::from(flavour) << 4);
            }
            if let Some(c) = ie.condition {
                bits = satisfy(&enc.conditions[usize::from(c)].expr, isa, enc, bits);
            } else if let Some(c) = enc.conditions.first() {
                bits = satisfy(&c.expr, isa, enc, bits);
            }
            // Identifier bits win over anything an operand wrote.
            bits = (bits & !enc.identifier_mask) | identifier(enc, ie.opcode).unwrap_or(0);
            out.push(Sample {
                instruction: i as u16,
                encoding: ie.encoding,
                variant: v as u16,
                bits,
                len: usize::from(enc.bits) / 8,
            });
        }
    }
    out
}

/// Whether any instruction of encoding `enc` has an operand in field `field`.
fn field_is_operand(isa: &'static IsaDef, enc: u16, field: usize) -> bool {
    isa.instructions
        .iter()
        .flat_map(|i| i.encodings)
        .filter(|ie| ie.encoding == enc)
        .any(|ie| ie.operands.iter().any(|o| o.field == Some(field as u16)))
}

/// The value named `NULL` in an operand type that some instruction of `isa` uses for a field of
/// the same name and bit layout as `field`.
fn null_value(isa: &'static IsaDef, field: &FieldDef) -> Option<u64> {
    isa.instructions
        .iter()
        .flat_map(|i| i.encodings)
        .find_map(|ie| {
            let enc = &isa.encodings[usize::from(ie.encoding)];
            ie.operands.iter().find_map(|o| {
                let f = &enc.fields[usize::from(o.field?)];
                if f.name != field.name || f.ranges != field.ranges {
                    return None;
                }
                let ty = &isa.operand_types[usize::from(o.operand_type)];
                ty.predefined
                    .iter()
                    .find(|p| p.name.eq_ignore_ascii_case("null"))
                    .map(|p| p.value as u64)
            })
        })
}

/// The identifier bits selecting `opcode` in `enc`.
fn identifier(enc: &EncodingDef, opcode: u32) -> Option<u128> {
    if let Some(id) = enc.identifier_for_opcode(opcode) {
        return Some(id);
    }
    // Encodings whose identifiers do not carry the opcode: the only identifier, opcode in the
    // field named like other encodings' opcode fields.
    let base = enc.identifiers.first()? & enc.identifier_mask;
    Some(match enc.field("OP") {
        Some(f) if enc.opcode_field.is_none() => f.insert(base, u64::from(opcode)),
        _ => base,
    })
}

/// A register of the operand's size from the operand type's predefined values, aligned to its
/// size; `None` when the type names no registers (immediates, labels, hardware registers).
fn operand_value(ty: &OperandTypeDef, size: u16, field: &FieldDef, flavour: u32) -> Option<u64> {
    let regs = u32::from(size).div_ceil(32).max(1);
    let align = regs.next_power_of_two().min(4);
    let index = align * (2 + flavour % 3);
    let max = if field.value_bits() >= 64 {
        u64::MAX
    } else {
        (1u64 << field.value_bits()) - 1
    };
    // Prefer vector registers, then scalar, then accumulation registers.
    for prefix in ["v", "s", "acc"] {
        let wanted = alloc::format!("{prefix}{index}");
        if let Some(p) = ty.predefined.iter().find(|p| p.name == wanted) {
            if p.value >= 0 && (p.value as u64) <= max {
                return Some(p.value as u64);
            }
        }
    }
    None
}

/// Sets the fields `expr` tests so that it holds: `==` and `.within` assign, `!=` and
/// `.notwithin` move a field off a forbidden value.
fn satisfy(expr: &Expr, isa: &'static IsaDef, home: &'static EncodingDef, bits: u128) -> u128 {
    let Expr::Op { op, args, .. } = *expr else {
        return bits;
    };
    match (op, args) {
        (ExprOp::And, [a, b]) => satisfy(b, isa, home, satisfy(a, isa, home, bits)),
        (ExprOp::Eq, [lhs, Expr::Lit(v)]) => match isa.condition_field(lhs, home) {
            Some(f) => f.insert(bits, *v as u64),
            None => bits,
        },
        (
            ExprOp::Within,
            [
                lhs,
                Expr::Op {
                    op: ExprOp::ConsArray,
                    args: values,
                    ..
                },
            ],
        ) => match (isa.condition_field(lhs, home), values.first()) {
            (Some(f), Some(Expr::Lit(v))) => f.insert(bits, *v as u64),
            _ => bits,
        },
        (ExprOp::Ne, [lhs, Expr::Lit(v)]) => match isa.condition_field(lhs, home) {
            Some(f) if f.extract(bits) == *v as u64 => f.insert(bits, 1),
            _ => bits,
        },
        (
            ExprOp::NotWithin,
            [
                lhs,
                Expr::Op {
                    op: ExprOp::ConsArray,
                    args: values,
                    ..
                },
            ],
        ) => match isa.condition_field(lhs, home) {
            Some(f)
                if values
                    .iter()
                    .any(|x| matches!(x, Expr::Lit(v) if *v as u64 == f.extract(bits))) =>
            {
                f.insert(bits, 1)
            }
            _ => bits,
        },
        _ => bits,
    }
}
