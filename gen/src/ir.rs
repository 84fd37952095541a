//! The lowered ISA: AMD's data with every reference resolved to an index and every number parsed.
//! This is what validation guarantees and what emission consumes.

use crate::diag::Position;

/// One generation's ISA as read from one file.
#[derive(Debug, Clone, Default)]
pub struct Isa {
    pub architecture_name: String,
    pub architecture_id: u32,
    pub release_date: String,
    pub schema_version: String,
    pub copyright: String,
    pub sensitivity: String,
    pub license: String,
    pub encodings: Vec<Encoding>,
    pub instructions: Vec<Instruction>,
    pub data_formats: Vec<DataFormat>,
    pub operand_types: Vec<OperandType>,
    pub functional_groups: Vec<Named>,
    pub functional_subgroups: Vec<Named>,
}

/// A name with AMD's prose description (possibly empty).
#[derive(Debug, Clone, Default)]
pub struct Named {
    pub name: String,
    pub description: String,
}

#[derive(Debug, Clone)]
pub struct Encoding {
    pub name: String,
    pub description: String,
    /// AMD's decode order (`Encoding/@Order`); lower is tried first.
    pub order: i32,
    pub bit_count: u32,
    pub identifier_mask: u128,
    pub identifiers: Vec<u128>,
    pub identifier_positions: Vec<Option<Position>>,
    pub conditions: Vec<Condition>,
    pub fields: Vec<Field>,
    /// The field holding the opcode, inferred from the identifiers (see `lower::infer_opcode_field`).
    pub opcode_field: Option<usize>,
    pub position: Option<Position>,
}

#[derive(Debug, Clone)]
pub struct Condition {
    pub name: String,
    pub expr: Expr,
}

/// A condition expression tree, kept as AMD writes it so the decoder can evaluate it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expr {
    /// `op @type` applied to its operands, with the result type `ty` when given.
    Op {
        op: OpKind,
        args: Vec<Expr>,
        ty: Option<Ty>,
    },
    /// A field or encoding name (`id @val`).
    Id(String),
    /// A number (`lit @val`).
    Lit(i64),
}

/// The operators AMD's condition expressions use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum OpKind {
    /// `.fieldderef`: `a.b`, a field of an encoding.
    FieldDeref,
    /// `.cons_array`: a list of constants.
    ConsArray,
    /// `.within`: the left value is one of the array's elements.
    Within,
    /// `.notwithin`: the left value is none of the array's elements.
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

impl OpKind {
    pub fn from_xml(s: &str) -> Option<OpKind> {
        Some(match s {
            ".fieldderef" => OpKind::FieldDeref,
            ".cons_array" => OpKind::ConsArray,
            ".within" => OpKind::Within,
            ".notwithin" => OpKind::NotWithin,
            "==" => OpKind::Eq,
            "!=" => OpKind::Ne,
            "&&" => OpKind::And,
            "||" => OpKind::Or,
            "!" => OpKind::Not,
            "<" => OpKind::Lt,
            "<=" => OpKind::Le,
            ">" => OpKind::Gt,
            ">=" => OpKind::Ge,
            _ => return None,
        })
    }

    pub fn rust_name(self) -> &'static str {
        match self {
            OpKind::FieldDeref => "FieldDeref",
            OpKind::ConsArray => "ConsArray",
            OpKind::Within => "Within",
            OpKind::NotWithin => "NotWithin",
            OpKind::Eq => "Eq",
            OpKind::Ne => "Ne",
            OpKind::And => "And",
            OpKind::Or => "Or",
            OpKind::Not => "Not",
            OpKind::Lt => "Lt",
            OpKind::Le => "Le",
            OpKind::Gt => "Gt",
            OpKind::Ge => "Ge",
        }
    }
}

/// A type annotation `ty/t @base @size` (`I32`, `U1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ty {
    pub signed: bool,
    pub bits: u16,
}

/// A field of an encoding or an operand type, possibly split over several bit ranges.
#[derive(Debug, Clone)]
pub struct Field {
    pub name: String,
    pub description: String,
    pub conditional: bool,
    /// Least significant range first (AMD's `Range/@Order` 0 first).
    pub ranges: Vec<BitRange>,
    pub predefined: Vec<PredefinedValue>,
}

impl Field {
    /// Width of the field's value, including implied padding bits.
    pub fn value_bits(&self) -> u32 {
        self.ranges.iter().map(|r| r.width + r.padding_width).sum()
    }

    /// Bits this field occupies in the encoding.
    pub fn mask(&self) -> u128 {
        self.ranges
            .iter()
            .fold(0, |m, r| m | (bits_mask(r.width) << r.offset))
    }
}

/// `width` low bits set.
pub fn bits_mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// One contiguous run of bits; `padding` bits of fixed value are implied below it (AMD's
/// `Padding`: an SGPR-pair base whose low bit is always 0, for example).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BitRange {
    pub offset: u32,
    pub width: u32,
    pub padding_width: u32,
    pub padding_value: u64,
}

#[derive(Debug, Clone)]
pub struct PredefinedValue {
    pub name: String,
    pub description: String,
    pub value: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct InstructionFlags {
    pub is_branch: bool,
    pub is_conditional_branch: bool,
    pub is_indirect_branch: bool,
    pub is_program_terminator: bool,
    pub is_immediately_executed: bool,
}

#[derive(Debug, Clone)]
pub struct Instruction {
    pub name: String,
    pub description: String,
    pub flags: InstructionFlags,
    pub encodings: Vec<InstructionEncoding>,
    /// AMD's functional group and subgroup names (not always declared: see the findings).
    pub functional_group: String,
    pub functional_subgroups: Vec<String>,
    pub aliases: Vec<String>,
    pub position: Option<Position>,
}

#[derive(Debug, Clone)]
pub struct InstructionEncoding {
    pub encoding: usize,
    /// Index into the encoding's conditions; `None` when the encoding does not declare the named
    /// condition (AMD quirks: CDNA's `ENC_FLAT_GLBL` declares none, RDNA 3's `ENC_SOP1` lacks
    /// `Nothas_lit_0_Nothas_lit_1`).
    pub condition: Option<usize>,
    pub condition_name: String,
    pub opcode: u32,
    pub operands: Vec<Operand>,
}

#[derive(Debug, Clone)]
pub struct Operand {
    pub order: u32,
    /// Index of the encoding field holding this operand; implicit operands have none.
    pub field: Option<usize>,
    pub data_format: usize,
    pub operand_type: usize,
    pub size: u32,
    pub input: bool,
    pub output: bool,
    pub implicit: bool,
    pub binary_microcode_required: bool,
}

#[derive(Debug, Clone)]
pub struct DataFormat {
    pub name: String,
    pub description: String,
    pub data_type: String,
    pub bit_count: u32,
    pub component_count: u32,
    pub bit_maps: Vec<DataBitMap>,
}

#[derive(Debug, Clone)]
pub struct DataBitMap {
    pub order: u32,
    pub fields: Vec<DataField>,
}

#[derive(Debug, Clone)]
pub struct DataField {
    pub name: String,
    /// AMD's `Signedness`: `Signed`, `Unsigned`, `SignedByModifier`, `DoesNotApply`.
    pub signedness: String,
    pub ranges: Vec<BitRange>,
}

#[derive(Debug, Clone)]
pub struct OperandType {
    pub name: String,
    pub description: String,
    pub partitioned: bool,
    pub predefined: Vec<PredefinedValue>,
    pub fields: Vec<Field>,
    pub subtypes: Vec<usize>,
}
