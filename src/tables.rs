//! The shapes of the generated tables. Each generation module (`crate::cdna3`, …) holds statics of
//! these types, emitted by `amdgpu-isa-gen` from AMD's XML.
//!
//! `description` strings carry AMD's prose only when the crate was built from the XML; built from
//! the committed `generated/` files they are empty.

use crate::Generation;

/// Everything one generation's XML file says.
#[derive(Debug)]
pub struct IsaDef {
    pub generation: Generation,
    /// AMD's `ArchitectureName` (`AMD CDNA 3`).
    pub architecture_name: &'static str,
    pub architecture_id: u32,
    pub release_date: &'static str,
    pub schema_version: &'static str,
    pub encodings: &'static [EncodingDef],
    /// Indices into `encodings` sorted by AMD's decode `Order`.
    pub decode_order: &'static [u16],
    pub instructions: &'static [InstructionDef],
    pub operand_types: &'static [OperandTypeDef],
    pub data_formats: &'static [DataFormatDef],
    pub functional_groups: &'static [NamedDef],
    pub functional_subgroups: &'static [&'static str],
}

impl IsaDef {
    /// The encoding named `name` (AMD's name, `ENC_VOP3`).
    pub fn encoding(&self, name: &str) -> Option<&'static EncodingDef> {
        self.encodings.iter().find(|e| e.name == name)
    }

    /// The instruction named `name` (AMD's name, any case).
    pub fn instruction(&self, name: &str) -> Option<&'static InstructionDef> {
        self.instructions
            .iter()
            .find(|i| i.name.eq_ignore_ascii_case(name))
    }

    /// The field a condition expression `.fieldderef(.fieldderef(INST, ENC), FIELD)` names.
    /// Conditions name encodings by their short name (`VOP1` for `ENC_VOP1`); a name that is no
    /// encoding means the encoding holding the condition (RDNA 3's `VOPD` in `VOPDXY`).
    pub fn condition_field(
        &self,
        expr: &Expr,
        home: &'static EncodingDef,
    ) -> Option<&'static FieldDef> {
        let Expr::Op {
            op: ExprOp::FieldDeref,
            args:
                [
                    Expr::Op {
                        args: [_, Expr::Id(enc)],
                        ..
                    },
                    Expr::Id(field),
                ],
            ..
        } = *expr
        else {
            return None;
        };
        let target = self.encoding_by_short_name(enc).unwrap_or(home);
        target.field(field).or_else(|| home.field(field))
    }

    /// The encoding a condition names: by its name or its name without `ENC_` (`VOP1`).
    pub fn encoding_by_short_name(&self, name: &str) -> Option<&'static EncodingDef> {
        let encodings: &'static [EncodingDef] = self.encodings;
        encodings
            .iter()
            .find(|e| e.name == name || e.name.strip_prefix("ENC_") == Some(name))
    }

    /// Number of (instruction, encoding, condition) entries.
    pub fn instruction_encoding_count(&self) -> usize {
        self.instructions.iter().map(|i| i.encodings.len()).sum()
    }
}

#[derive(Debug)]
pub struct NamedDef {
    pub name: &'static str,
    pub description: &'static str,
}

/// One microcode format.
#[derive(Debug)]
pub struct EncodingDef {
    pub name: &'static str,
    pub description: &'static str,
    /// AMD's decode order: lower is tried first.
    pub order: i32,
    /// Width in bits, without literal words that follow.
    pub bits: u16,
    pub identifier_mask: u128,
    pub identifiers: &'static [u128],
    pub conditions: &'static [ConditionDef],
    pub fields: &'static [FieldDef],
    /// Index into `fields` of the field carrying the opcode (inferred from the identifiers).
    pub opcode_field: Option<u16>,
    /// `(opcode, index into the generation's instructions)`, sorted by opcode.
    pub opcodes: &'static [(u32, u16)],
}

impl EncodingDef {
    /// The field named `name`.
    pub fn field(&self, name: &str) -> Option<&'static FieldDef> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// Whether `word` (the encoding's first `bits` bits) carries one of this encoding's identifiers.
    pub fn matches_identifier(&self, word: u128) -> bool {
        let masked = word & self.identifier_mask;
        self.identifiers
            .iter()
            .any(|&id| id & self.identifier_mask == masked)
    }

    /// The identifier (under the mask) that selects `opcode` in this encoding, if the
    /// identifiers carry opcodes.
    pub fn identifier_for_opcode(&self, opcode: u32) -> Option<u128> {
        let field = &self.fields[usize::from(self.opcode_field?)];
        self.identifiers
            .iter()
            .map(|&id| id & self.identifier_mask)
            .find(|&id| field.extract(id) == u64::from(opcode))
    }

    /// Instruction indices with `opcode` in this encoding.
    pub fn instructions_with_opcode(&self, opcode: u32) -> impl Iterator<Item = u16> + '_ {
        let start = self.opcodes.partition_point(|&(op, _)| op < opcode);
        self.opcodes[start..]
            .iter()
            .take_while(move |&&(op, _)| op == opcode)
            .map(|&(_, i)| i)
    }
}

/// A named bit field of an encoding or an operand type.
#[derive(Debug)]
pub struct FieldDef {
    pub name: &'static str,
    pub description: &'static str,
    pub conditional: bool,
    /// Least significant first.
    pub ranges: &'static [BitRange],
    /// Named values of the field (operand types' sub-fields).
    pub predefined: &'static [PredefinedValueDef],
}

impl FieldDef {
    /// The field's value in `word`, implied padding bits included.
    pub fn extract(&self, word: u128) -> u64 {
        let mut value = 0u64;
        let mut shift = 0u32;
        for r in self.ranges {
            if r.padding_width > 0 {
                value |= r.padding_value << shift;
                shift += u32::from(r.padding_width);
            }
            let bits = (word >> r.offset) & low_bits(r.width);
            value |= (bits as u64) << shift;
            shift += u32::from(r.width);
        }
        value
    }

    /// `word` with this field set to `value` (implied padding bits of `value` dropped).
    pub fn insert(&self, word: u128, value: u64) -> u128 {
        let mut word = word;
        let mut shift = 0u32;
        for r in self.ranges {
            shift += u32::from(r.padding_width);
            let m = low_bits(r.width);
            let bits = (u128::from(value) >> shift) & m;
            word = (word & !(m << r.offset)) | (bits << r.offset);
            shift += u32::from(r.width);
        }
        word
    }

    /// Width of the field's value, implied padding bits included.
    pub fn value_bits(&self) -> u32 {
        self.ranges
            .iter()
            .map(|r| u32::from(r.width) + u32::from(r.padding_width))
            .sum()
    }

    /// The bits this field occupies in its encoding.
    pub fn mask(&self) -> u128 {
        self.ranges
            .iter()
            .fold(0, |m, r| m | (low_bits(r.width) << r.offset))
    }
}

/// Orders `a` against `b` as if both were upper-cased (names in the tables are upper case).
pub fn cmp_ignore_ascii_case(a: &str, b: &str) -> core::cmp::Ordering {
    a.bytes()
        .map(|c| c.to_ascii_uppercase())
        .cmp(b.bytes().map(|c| c.to_ascii_uppercase()))
}

fn low_bits(width: u16) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// A contiguous run of bits, with `padding_width` implied bits of value `padding_value` below it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BitRange {
    pub offset: u16,
    pub width: u16,
    pub padding_width: u16,
    pub padding_value: u64,
}

impl BitRange {
    /// Compact constructor for the generated tables.
    pub const fn new(offset: u16, width: u16, padding_width: u16, padding_value: u64) -> Self {
        BitRange {
            offset,
            width,
            padding_width,
            padding_value,
        }
    }
}

#[derive(Debug)]
pub struct PredefinedValueDef {
    pub name: &'static str,
    pub value: i64,
    pub description: &'static str,
}

impl PredefinedValueDef {
    /// Compact constructor for the generated tables.
    pub const fn new(name: &'static str, value: i64, description: &'static str) -> Self {
        PredefinedValueDef {
            name,
            value,
            description,
        }
    }
}

/// A named encoding condition (`has_lit`, `has_dpp8`) and its expression.
#[derive(Debug)]
pub struct ConditionDef {
    pub name: &'static str,
    pub expr: Expr,
}

/// A condition expression as AMD writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expr {
    Op {
        op: ExprOp,
        args: &'static [Expr],
        ty: Option<ExprType>,
    },
    /// A name: `INST`, an encoding's short name (`VOP1`) or a field (`SRC0`).
    Id(&'static str),
    Lit(i64),
}

/// Operators of condition expressions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExprOp {
    /// `.fieldderef`: `a.b`.
    FieldDeref,
    /// `.cons_array`: a list of constants.
    ConsArray,
    /// `.within`: left value is in the array.
    Within,
    /// `.notwithin`: left value is not in the array.
    NotWithin,
    Eq,
    Ne,
    And,
    Or,
    Not,
    Lt,
    Le,
    Gt,
    Ge,
}

/// `ty/t`: signed (`I`) or unsigned (`U`) with a bit size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExprType {
    pub signed: bool,
    pub bits: u16,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct InstructionFlags {
    pub is_branch: bool,
    pub is_conditional_branch: bool,
    pub is_indirect_branch: bool,
    pub is_program_terminator: bool,
    pub is_immediately_executed: bool,
}

#[derive(Debug)]
pub struct InstructionDef {
    /// AMD's name (`V_ADD_F32`); the canonical name in this crate.
    pub name: &'static str,
    pub description: &'static str,
    pub flags: InstructionFlags,
    pub functional_group: &'static str,
    pub functional_subgroups: &'static [&'static str],
    /// AMD's `AliasedInstructionNames`.
    pub aliases: &'static [&'static str],
    pub encodings: &'static [InstructionEncodingDef],
}

/// An instruction in one encoding under one condition.
#[derive(Debug)]
pub struct InstructionEncodingDef {
    /// Index into the generation's encodings.
    pub encoding: u16,
    /// Index into the encoding's conditions; `None` where the encoding declares none.
    pub condition: Option<u16>,
    pub condition_name: &'static str,
    pub opcode: u32,
    /// Sorted by `order`.
    pub operands: &'static [OperandDef],
}

#[derive(Debug)]
pub struct OperandDef {
    pub order: u8,
    /// Index into the encoding's fields; `None` for implicit operands.
    pub field: Option<u16>,
    /// Index into the generation's data formats.
    pub data_format: u16,
    /// Index into the generation's operand types.
    pub operand_type: u16,
    /// Size in bits.
    pub size: u16,
    pub input: bool,
    pub output: bool,
    pub implicit: bool,
    pub binary_microcode_required: bool,
}

impl OperandDef {
    pub const INPUT: u8 = 1;
    pub const OUTPUT: u8 = 2;
    pub const IMPLICIT: u8 = 4;
    pub const BINARY_MICROCODE_REQUIRED: u8 = 8;
    /// `field` value meaning "no field" in [`OperandDef::new`].
    pub const NO_FIELD: u16 = u16::MAX;

    /// Compact constructor for the generated tables; `flags` combines the constants above.
    pub const fn new(
        order: u8,
        field: u16,
        data_format: u16,
        operand_type: u16,
        size: u16,
        flags: u8,
    ) -> Self {
        OperandDef {
            order,
            field: if field == Self::NO_FIELD {
                None
            } else {
                Some(field)
            },
            data_format,
            operand_type,
            size,
            input: flags & Self::INPUT != 0,
            output: flags & Self::OUTPUT != 0,
            implicit: flags & Self::IMPLICIT != 0,
            binary_microcode_required: flags & Self::BINARY_MICROCODE_REQUIRED != 0,
        }
    }
}

#[derive(Debug)]
pub struct OperandTypeDef {
    pub name: &'static str,
    pub description: &'static str,
    pub partitioned: bool,
    /// Named values (register names, inline constants).
    pub predefined: &'static [PredefinedValueDef],
    /// Sub-fields, for operand types with their own microcode format (`OPR_HWREG`, `OPR_WAITCNT`).
    pub fields: &'static [FieldDef],
    /// Indices of subtypes in the generation's operand types.
    pub subtypes: &'static [u16],
}

#[derive(Debug)]
pub struct DataFormatDef {
    pub name: &'static str,
    pub description: &'static str,
    pub data_type: &'static str,
    pub bit_count: u32,
    pub component_count: u32,
    pub bit_maps: &'static [DataBitMapDef],
}

#[derive(Debug)]
pub struct DataBitMapDef {
    pub order: u32,
    pub fields: &'static [DataFieldDef],
}

#[derive(Debug)]
pub struct DataFieldDef {
    pub name: &'static str,
    /// AMD's `Signedness`: `Signed`, `Unsigned`, `SignedByModifier` or `DoesNotApply`.
    pub signedness: &'static str,
    pub ranges: &'static [BitRange],
}

/// Returned by a [`Semantics`](crate) method that has not been implemented.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unimplemented {
    pub generation: Generation,
    pub instruction: &'static str,
}

impl core::fmt::Display for Unimplemented {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "semantics of {} ({}) are not implemented",
            self.instruction,
            self.generation.display_name()
        )
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Unimplemented {}
