//! Machine code in, instructions out: the table-driven decoder.
//!
//! Every choice comes from the generated tables, i.e. from AMD's XML: encodings are tried in
//! AMD's decode `Order`; an encoding matches when the word carries one of its
//! `EncodingIdentifier`s under its `EncodingIdentifierMask` and one of its `EncodingCondition`s
//! holds; the instruction is the one whose opcode sits in the encoding's opcode field.
//!
//! One rule goes beyond AMD's `Order`: when several encodings match, one whose condition tests
//! the word (`SSRC0 == 255`: a literal follows) wins over one whose condition is the constant
//! `1`. RDNA 3's `ENC_SOP1` declares `1` where CDNA 3's declares `SSRC0 != 255`, so by `Order`
//! alone a SOP1 instruction with a literal would be cut to 32 bits.

use alloc::vec::Vec;
use core::fmt;

use crate::Generation;
use crate::tables::{
    EncodingDef, Expr, ExprOp, FieldDef, InstructionDef, InstructionEncodingDef, IsaDef,
};

/// Longest instruction: 128 bits of encoding (AMD's widest) — literals are encoding fields.
pub const MAX_WORDS: usize = 4;

/// Why bytes did not decode. Decoding of a stream resumes at the next 32-bit word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecodeError {
    /// No encoding's identifier and condition match the word at `offset`.
    NoEncoding { offset: usize, word: u32 },
    /// An encoding matched but has no instruction with this opcode.
    UnknownOpcode {
        offset: usize,
        encoding: &'static str,
        opcode: u32,
    },
    /// The matching encoding needs more bytes than remain.
    Truncated {
        offset: usize,
        encoding: &'static str,
        needed: usize,
        available: usize,
    },
    /// Fewer than four bytes remain.
    PartialWord { offset: usize, available: usize },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DecodeError::NoEncoding { offset, word } => {
                write!(
                    f,
                    "offset {offset:#x}: word {word:#010x} matches no encoding"
                )
            }
            DecodeError::UnknownOpcode {
                offset,
                encoding,
                opcode,
            } => {
                write!(
                    f,
                    "offset {offset:#x}: {encoding} has no instruction with opcode {opcode}"
                )
            }
            DecodeError::Truncated {
                offset,
                encoding,
                needed,
                available,
            } => write!(
                f,
                "offset {offset:#x}: {encoding} needs {needed} bytes, only {available} remain"
            ),
            DecodeError::PartialWord { offset, available } => {
                write!(
                    f,
                    "offset {offset:#x}: {available} trailing byte(s), not a whole word"
                )
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for DecodeError {}

/// One decoded instruction: which table entries it is and the words it occupies.
#[derive(Debug, Clone, Copy)]
pub struct Decoded {
    pub isa: &'static IsaDef,
    /// Index into `isa.instructions`.
    pub instruction: u16,
    /// Index into `isa.encodings`.
    pub encoding: u16,
    /// Index into the instruction's `encodings` (the variant whose condition held).
    pub variant: u16,
    /// The instruction's words, little-endian order; unused words are 0.
    pub words: [u32; MAX_WORDS],
    /// Length in bytes.
    pub len: u8,
}

impl PartialEq for Decoded {
    fn eq(&self, other: &Self) -> bool {
        self.isa.generation == other.isa.generation
            && (
                self.instruction,
                self.encoding,
                self.variant,
                self.words,
                self.len,
            ) == (
                other.instruction,
                other.encoding,
                other.variant,
                other.words,
                other.len,
            )
    }
}

impl Eq for Decoded {}

impl Decoded {
    pub fn instruction_def(&self) -> &'static InstructionDef {
        &self.isa.instructions[usize::from(self.instruction)]
    }

    pub fn encoding_def(&self) -> &'static EncodingDef {
        &self.isa.encodings[usize::from(self.encoding)]
    }

    pub fn variant_def(&self) -> &'static InstructionEncodingDef {
        &self.instruction_def().encodings[usize::from(self.variant)]
    }

    /// AMD's name of the instruction.
    pub fn name(&self) -> &'static str {
        self.instruction_def().name
    }

    /// The encoding's bits as one integer.
    pub fn bits(&self) -> u128 {
        words_to_u128(&self.words)
    }

    /// The value of the encoding field `name`.
    pub fn field(&self, name: &str) -> Option<u64> {
        self.encoding_def()
            .field(name)
            .map(|f| f.extract(self.bits()))
    }

    /// The instruction's bytes.
    pub fn bytes(&self) -> impl Iterator<Item = u8> + '_ {
        self.words
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .take(usize::from(self.len))
    }
}

fn words_to_u128(words: &[u32]) -> u128 {
    words
        .iter()
        .enumerate()
        .fold(0u128, |acc, (i, &w)| acc | (u128::from(w) << (32 * i)))
}

/// A condition expression with its field references resolved once.
#[derive(Debug, Clone)]
enum Cond {
    Const(i64),
    Field(&'static FieldDef),
    Array(Vec<i64>),
    Op(ExprOp, Vec<Cond>),
}

impl Cond {
    fn compile(expr: &Expr, isa: &'static IsaDef, home: &'static EncodingDef) -> Cond {
        match *expr {
            Expr::Lit(v) => Cond::Const(v),
            // A bare name outside a field reference has no value the decoder knows.
            Expr::Id(_) => Cond::Const(0),
            Expr::Op {
                op: ExprOp::FieldDeref,
                ..
            } => match isa.condition_field(expr, home) {
                Some(f) => Cond::Field(f),
                None => Cond::Const(0),
            },
            Expr::Op {
                op: ExprOp::ConsArray,
                args,
                ..
            } => Cond::Array(
                args.iter()
                    .map(|a| if let Expr::Lit(v) = a { *v } else { i64::MIN })
                    .collect(),
            ),
            Expr::Op { op, args, .. } => Cond::Op(
                op,
                args.iter().map(|a| Cond::compile(a, isa, home)).collect(),
            ),
        }
    }

    fn is_constant(&self) -> bool {
        matches!(self, Cond::Const(_))
    }

    fn eval(&self, word: u128) -> i64 {
        match self {
            Cond::Const(v) => *v,
            Cond::Field(f) => f.extract(word) as i64,
            Cond::Array(_) => 0,
            Cond::Op(op, args) => {
                let a = |i: usize| args.get(i).map_or(0, |c| c.eval(word));
                let within = || match args.get(1) {
                    Some(Cond::Array(values)) => values.contains(&a(0)),
                    _ => false,
                };
                i64::from(match op {
                    ExprOp::Eq => a(0) == a(1),
                    ExprOp::Ne => a(0) != a(1),
                    ExprOp::Lt => a(0) < a(1),
                    ExprOp::Le => a(0) <= a(1),
                    ExprOp::Gt => a(0) > a(1),
                    ExprOp::Ge => a(0) >= a(1),
                    ExprOp::And => a(0) != 0 && a(1) != 0,
                    ExprOp::Or => a(0) != 0 || a(1) != 0,
                    ExprOp::Not => a(0) == 0,
                    ExprOp::Within => within(),
                    ExprOp::NotWithin => !within(),
                    ExprOp::FieldDeref | ExprOp::ConsArray => false,
                })
            }
        }
    }
}

/// The first word's top bits used to pick candidate encodings.
const BUCKET_BITS: u32 = 9;

/// Per-encoding decoding data, prepared once.
#[derive(Debug)]
struct EncodingPlan {
    index: u16,
    def: &'static EncodingDef,
    words: usize,
    /// Identifiers under the mask, sorted.
    identifiers: Vec<u128>,
    conditions: Vec<Cond>,
    opcode_field: Option<&'static FieldDef>,
}

/// A decoder for one generation.
#[derive(Debug)]
pub struct Decoder {
    isa: &'static IsaDef,
    /// Encodings in AMD's decode order.
    plans: Vec<EncodingPlan>,
    /// For each value of the first word's top `BUCKET_BITS` bits, the plans (indices into
    /// `plans`, in decode order) whose identifiers agree with it: most words try one or two.
    buckets: Vec<Vec<u16>>,
    /// For each instruction variant: its condition, compiled (None = always).
    variant_conditions: Vec<Vec<Option<Cond>>>,
}

impl Decoder {
    /// A decoder for `generation`, if its tables are built in.
    pub fn new(generation: Generation) -> Option<Decoder> {
        generation.isa().map(Decoder::for_isa)
    }

    pub fn for_isa(isa: &'static IsaDef) -> Decoder {
        let opcode_field_name = most_common_opcode_field(isa);
        let plans: Vec<EncodingPlan> = isa
            .decode_order
            .iter()
            .map(|&i| {
                let def = &isa.encodings[usize::from(i)];
                let mut identifiers: Vec<u128> = def
                    .identifiers
                    .iter()
                    .map(|&id| id & def.identifier_mask)
                    .collect();
                identifiers.sort_unstable();
                identifiers.dedup();
                let opcode_field = match def.opcode_field {
                    Some(f) => Some(&def.fields[usize::from(f)]),
                    // AMD's identifiers do not carry the opcode here (CDNA 4's ENC_VOP3PX2): use
                    // the field that carries it in the generation's other encodings.
                    None => opcode_field_name.and_then(|n| def.field(n)),
                };
                EncodingPlan {
                    index: i,
                    def,
                    words: usize::from(def.bits).div_ceil(32),
                    identifiers,
                    conditions: def
                        .conditions
                        .iter()
                        .map(|c| Cond::compile(&c.expr, isa, def))
                        .collect(),
                    opcode_field,
                }
            })
            .collect();
        let variant_conditions = isa
            .instructions
            .iter()
            .map(|inst| {
                inst.encodings
                    .iter()
                    .map(|ie| {
                        let enc = &isa.encodings[usize::from(ie.encoding)];
                        ie.condition
                            .map(|c| Cond::compile(&enc.conditions[usize::from(c)].expr, isa, enc))
                    })
                    .collect()
            })
            .collect();
        let buckets = (0..1u32 << BUCKET_BITS)
            .map(|key| {
                let region = (u128::from(u32::MAX) >> (32 - BUCKET_BITS)) << (32 - BUCKET_BITS);
                let top = u128::from(key) << (32 - BUCKET_BITS);
                plans
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| {
                        let m = p.def.identifier_mask & region;
                        p.identifiers.iter().any(|&id| id & m == top & m)
                    })
                    .map(|(i, _)| i as u16)
                    .collect()
            })
            .collect();
        Decoder {
            isa,
            plans,
            buckets,
            variant_conditions,
        }
    }

    pub fn isa(&self) -> &'static IsaDef {
        self.isa
    }

    /// Decodes the instruction at the start of `bytes`; `offset` is only used in errors.
    pub fn decode(&self, bytes: &[u8], offset: usize) -> Result<Decoded, DecodeError> {
        if bytes.len() < 4 {
            return Err(DecodeError::PartialWord {
                offset,
                available: bytes.len(),
            });
        }
        let mut words = [0u32; MAX_WORDS];
        let available = (bytes.len() / 4).min(MAX_WORDS);
        for (i, w) in words.iter_mut().enumerate().take(available) {
            *w = u32::from_le_bytes([
                bytes[4 * i],
                bytes[4 * i + 1],
                bytes[4 * i + 2],
                bytes[4 * i + 3],
            ]);
        }
        let full = words_to_u128(&words);
        // (plan, matched by a condition that tests the word)
        let mut chosen: Option<(&EncodingPlan, bool)> = None;
        let mut truncated: Option<&EncodingPlan> = None;
        let bucket = &self.buckets[(words[0] >> (32 - BUCKET_BITS)) as usize];
        for plan in bucket.iter().map(|&i| &self.plans[usize::from(i)]) {
            let word = full & low_bits(plan.def.bits);
            if plan
                .identifiers
                .binary_search(&(word & plan.def.identifier_mask))
                .is_err()
            {
                continue;
            }
            let tested = if plan.conditions.is_empty() {
                false
            } else {
                match plan.conditions.iter().find(|c| c.eval(word) != 0) {
                    Some(c) => !c.is_constant(),
                    None => continue,
                }
            };
            if plan.words > available {
                truncated.get_or_insert(plan);
                continue;
            }
            match chosen {
                None => {
                    chosen = Some((plan, tested));
                    if tested {
                        break;
                    }
                }
                Some((_, false)) if tested => {
                    chosen = Some((plan, true));
                    break;
                }
                Some(_) => {}
            }
        }
        let Some((plan, _)) = chosen else {
            return Err(match truncated {
                Some(p) => DecodeError::Truncated {
                    offset,
                    encoding: p.def.name,
                    needed: p.words * 4,
                    available: bytes.len(),
                },
                None => DecodeError::NoEncoding {
                    offset,
                    word: words[0],
                },
            });
        };
        let word = full & low_bits(plan.def.bits);
        let instruction = match plan.opcode_field {
            Some(f) => {
                let opcode = f.extract(word) as u32;
                plan.def.instructions_with_opcode(opcode).next().ok_or(
                    DecodeError::UnknownOpcode {
                        offset,
                        encoding: plan.def.name,
                        opcode,
                    },
                )?
            }
            None => match plan.def.opcodes {
                [(_, only)] => *only,
                _ => {
                    return Err(DecodeError::UnknownOpcode {
                        offset,
                        encoding: plan.def.name,
                        opcode: 0,
                    });
                }
            },
        };
        let variant = self.variant(instruction, plan.index, word);
        let mut used = [0u32; MAX_WORDS];
        used[..plan.words].copy_from_slice(&words[..plan.words]);
        Ok(Decoded {
            isa: self.isa,
            instruction,
            encoding: plan.index,
            variant,
            words: used,
            len: (plan.words * 4) as u8,
        })
    }

    /// The variant of `instruction` in `encoding` whose condition holds for `word` (the first
    /// one in `encoding` when none does).
    fn variant(&self, instruction: u16, encoding: u16, word: u128) -> u16 {
        let inst = &self.isa.instructions[usize::from(instruction)];
        let conds = &self.variant_conditions[usize::from(instruction)];
        let mut first = None;
        for (i, ie) in inst.encodings.iter().enumerate() {
            if ie.encoding != encoding {
                continue;
            }
            first.get_or_insert(i as u16);
            if conds[i].as_ref().is_some_and(|c| c.eval(word) != 0) {
                return i as u16;
            }
        }
        first.unwrap_or(0)
    }

    /// Decodes a stream; after an error, decoding resumes at the next 32-bit word.
    pub fn decode_all<'a>(
        &'a self,
        bytes: &'a [u8],
    ) -> impl Iterator<Item = Result<Decoded, DecodeError>> + 'a {
        let mut offset = 0;
        core::iter::from_fn(move || {
            if offset >= bytes.len() {
                return None;
            }
            let r = self.decode(&bytes[offset..], offset);
            offset += match &r {
                Ok(d) => usize::from(d.len),
                Err(DecodeError::PartialWord { available, .. }) => *available,
                Err(_) => 4,
            };
            Some(r)
        })
    }
}

fn low_bits(bits: u16) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

/// The name of the field most encodings of `isa` carry their opcode in (`OP`).
fn most_common_opcode_field(isa: &'static IsaDef) -> Option<&'static str> {
    let mut best: Option<(&str, usize)> = None;
    for e in isa.encodings {
        let Some(f) = e.opcode_field else { continue };
        let name = e.fields[usize::from(f)].name;
        let n = isa
            .encodings
            .iter()
            .filter(|x| {
                x.opcode_field
                    .is_some_and(|g| x.fields[usize::from(g)].name == name)
            })
            .count();
        if best.is_none_or(|(_, m)| n > m) {
            best = Some((name, n));
        }
    }
    best.map(|(n, _)| n)
}
