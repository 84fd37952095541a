//! First pass over a file: well-formedness, the element and attribute vocabulary of AMD's schema,
//! and the line of every element the later passes may need to point at.
//!
//! The typed model (`model.rs`) is read by serde, which neither reports positions nor notices
//! unknown elements. This pass does both, so a new AMD release with new constructs is noticed with
//! file, line and element instead of being silently dropped.

use std::collections::HashMap;

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

use crate::diag::{Findings, LineIndex, Position, Severity};

/// Every element path of schema 1.1.1 below `Spec`, with the attributes it may carry.
/// Elements inside a `CondtionExpression` are checked by [`EXPRESSION_ELEMENTS`] instead.
const KNOWN_ELEMENTS: &[(&str, &[&str])] = &[
    ("Spec", &[]),
    ("Spec/Document", &[]),
    ("Spec/Document/Copyright", &[]),
    ("Spec/Document/Sensitivity", &[]),
    ("Spec/Document/License", &[]),
    ("Spec/Document/ReleaseDate", &[]),
    ("Spec/Document/SchemaVersion", &[]),
    ("Spec/ISA", &[]),
    ("Spec/ISA/Architecture", &[]),
    ("Spec/ISA/Architecture/ArchitectureName", &[]),
    ("Spec/ISA/Architecture/ArchitectureId", &[]),
    ("Spec/ISA/Encodings", &[]),
    ("Spec/ISA/Encodings/Encoding", &["Order"]),
    ("Spec/ISA/Encodings/Encoding/EncodingName", &[]),
    ("Spec/ISA/Encodings/Encoding/BitCount", &[]),
    (
        "Spec/ISA/Encodings/Encoding/EncodingIdentifierMask",
        &["Radix"],
    ),
    ("Spec/ISA/Encodings/Encoding/EncodingIdentifiers", &[]),
    (
        "Spec/ISA/Encodings/Encoding/EncodingIdentifiers/EncodingIdentifier",
        &["Radix"],
    ),
    ("Spec/ISA/Encodings/Encoding/EncodingConditions", &[]),
    (
        "Spec/ISA/Encodings/Encoding/EncodingConditions/EncodingCondition",
        &[],
    ),
    (
        "Spec/ISA/Encodings/Encoding/EncodingConditions/EncodingCondition/ConditionName",
        &[],
    ),
    (
        "Spec/ISA/Encodings/Encoding/EncodingConditions/EncodingCondition/CondtionExpression",
        &[],
    ),
    ("Spec/ISA/Encodings/Encoding/Description", &[]),
    ("Spec/ISA/Encodings/Encoding/MicrocodeFormat", &[]),
    ("Spec/ISA/Encodings/Encoding/MicrocodeFormat/BitMap", &[]),
    (
        "Spec/ISA/Encodings/Encoding/MicrocodeFormat/BitMap/Field",
        &["IsConditional"],
    ),
    (
        "Spec/ISA/Encodings/Encoding/MicrocodeFormat/BitMap/Field/FieldName",
        &[],
    ),
    (
        "Spec/ISA/Encodings/Encoding/MicrocodeFormat/BitMap/Field/Description",
        &[],
    ),
    (
        "Spec/ISA/Encodings/Encoding/MicrocodeFormat/BitMap/Field/BitLayout",
        &["RangeCount"],
    ),
    (
        "Spec/ISA/Encodings/Encoding/MicrocodeFormat/BitMap/Field/BitLayout/Range",
        &["Order"],
    ),
    (
        "Spec/ISA/Encodings/Encoding/MicrocodeFormat/BitMap/Field/BitLayout/Range/BitCount",
        &[],
    ),
    (
        "Spec/ISA/Encodings/Encoding/MicrocodeFormat/BitMap/Field/BitLayout/Range/BitOffset",
        &[],
    ),
    (
        "Spec/ISA/Encodings/Encoding/MicrocodeFormat/BitMap/Field/BitLayout/Range/Padding",
        &[],
    ),
    (
        "Spec/ISA/Encodings/Encoding/MicrocodeFormat/BitMap/Field/BitLayout/Range/Padding/BitCount",
        &[],
    ),
    (
        "Spec/ISA/Encodings/Encoding/MicrocodeFormat/BitMap/Field/BitLayout/Range/Padding/Value",
        &["Radix"],
    ),
    ("Spec/ISA/Instructions", &[]),
    ("Spec/ISA/Instructions/Instruction", &[]),
    ("Spec/ISA/Instructions/Instruction/InstructionFlags", &[]),
    (
        "Spec/ISA/Instructions/Instruction/InstructionFlags/IsBranch",
        &[],
    ),
    (
        "Spec/ISA/Instructions/Instruction/InstructionFlags/IsConditionalBranch",
        &[],
    ),
    (
        "Spec/ISA/Instructions/Instruction/InstructionFlags/IsIndirectBranch",
        &[],
    ),
    (
        "Spec/ISA/Instructions/Instruction/InstructionFlags/IsProgramTerminator",
        &[],
    ),
    (
        "Spec/ISA/Instructions/Instruction/InstructionFlags/IsImmediatelyExecuted",
        &[],
    ),
    ("Spec/ISA/Instructions/Instruction/InstructionName", &[]),
    ("Spec/ISA/Instructions/Instruction/Description", &[]),
    (
        "Spec/ISA/Instructions/Instruction/InstructionEncodings",
        &[],
    ),
    (
        "Spec/ISA/Instructions/Instruction/InstructionEncodings/InstructionEncoding",
        &[],
    ),
    (
        "Spec/ISA/Instructions/Instruction/InstructionEncodings/InstructionEncoding/EncodingName",
        &[],
    ),
    (
        "Spec/ISA/Instructions/Instruction/InstructionEncodings/InstructionEncoding/EncodingCondition",
        &[],
    ),
    (
        "Spec/ISA/Instructions/Instruction/InstructionEncodings/InstructionEncoding/Opcode",
        &["Radix"],
    ),
    (
        "Spec/ISA/Instructions/Instruction/InstructionEncodings/InstructionEncoding/Operands",
        &[],
    ),
    (
        "Spec/ISA/Instructions/Instruction/InstructionEncodings/InstructionEncoding/Operands/Operand",
        &[
            "Input",
            "Output",
            "IsImplicit",
            "IsBinaryMicrocodeRequired",
            "Order",
        ],
    ),
    (
        "Spec/ISA/Instructions/Instruction/InstructionEncodings/InstructionEncoding/Operands/Operand/FieldName",
        &[],
    ),
    (
        "Spec/ISA/Instructions/Instruction/InstructionEncodings/InstructionEncoding/Operands/Operand/DataFormatName",
        &[],
    ),
    (
        "Spec/ISA/Instructions/Instruction/InstructionEncodings/InstructionEncoding/Operands/Operand/OperandType",
        &[],
    ),
    (
        "Spec/ISA/Instructions/Instruction/InstructionEncodings/InstructionEncoding/Operands/Operand/OperandSize",
        &[],
    ),
    ("Spec/ISA/Instructions/Instruction/FunctionalGroup", &[]),
    (
        "Spec/ISA/Instructions/Instruction/FunctionalGroup/Name",
        &[],
    ),
    (
        "Spec/ISA/Instructions/Instruction/FunctionalGroup/FunctionalSubgroups",
        &[],
    ),
    (
        "Spec/ISA/Instructions/Instruction/FunctionalGroup/FunctionalSubgroups/Subgroup",
        &[],
    ),
    (
        "Spec/ISA/Instructions/Instruction/AliasedInstructionNames",
        &[],
    ),
    (
        "Spec/ISA/Instructions/Instruction/AliasedInstructionNames/InstructionName",
        &[],
    ),
    ("Spec/ISA/DataFormats", &[]),
    ("Spec/ISA/DataFormats/DataFormat", &[]),
    ("Spec/ISA/DataFormats/DataFormat/DataFormatName", &[]),
    ("Spec/ISA/DataFormats/DataFormat/Description", &[]),
    ("Spec/ISA/DataFormats/DataFormat/DataType", &[]),
    ("Spec/ISA/DataFormats/DataFormat/BitCount", &[]),
    ("Spec/ISA/DataFormats/DataFormat/ComponentCount", &[]),
    ("Spec/ISA/DataFormats/DataFormat/DataAttributes", &[]),
    (
        "Spec/ISA/DataFormats/DataFormat/DataAttributes/BitMap",
        &["Order"],
    ),
    (
        "Spec/ISA/DataFormats/DataFormat/DataAttributes/BitMap/Field",
        &["Signedness"],
    ),
    (
        "Spec/ISA/DataFormats/DataFormat/DataAttributes/BitMap/Field/FieldName",
        &[],
    ),
    (
        "Spec/ISA/DataFormats/DataFormat/DataAttributes/BitMap/Field/BitLayout",
        &["RangeCount"],
    ),
    (
        "Spec/ISA/DataFormats/DataFormat/DataAttributes/BitMap/Field/BitLayout/Range",
        &["Order"],
    ),
    (
        "Spec/ISA/DataFormats/DataFormat/DataAttributes/BitMap/Field/BitLayout/Range/BitCount",
        &[],
    ),
    (
        "Spec/ISA/DataFormats/DataFormat/DataAttributes/BitMap/Field/BitLayout/Range/BitOffset",
        &[],
    ),
    ("Spec/ISA/OperandTypes", &[]),
    ("Spec/ISA/OperandTypes/OperandType", &["IsPartitioned"]),
    ("Spec/ISA/OperandTypes/OperandType/OperandTypeName", &[]),
    ("Spec/ISA/OperandTypes/OperandType/Description", &[]),
    (
        "Spec/ISA/OperandTypes/OperandType/OperandPredefinedValues",
        &[],
    ),
    (
        "Spec/ISA/OperandTypes/OperandType/OperandPredefinedValues/PredefinedValue",
        &[],
    ),
    (
        "Spec/ISA/OperandTypes/OperandType/OperandPredefinedValues/PredefinedValue/Name",
        &[],
    ),
    (
        "Spec/ISA/OperandTypes/OperandType/OperandPredefinedValues/PredefinedValue/Description",
        &[],
    ),
    (
        "Spec/ISA/OperandTypes/OperandType/OperandPredefinedValues/PredefinedValue/Value",
        &[],
    ),
    ("Spec/ISA/OperandTypes/OperandType/MicrocodeFormat", &[]),
    (
        "Spec/ISA/OperandTypes/OperandType/MicrocodeFormat/BitMap",
        &[],
    ),
    (
        "Spec/ISA/OperandTypes/OperandType/MicrocodeFormat/BitMap/Field",
        &["IsConditional"],
    ),
    (
        "Spec/ISA/OperandTypes/OperandType/MicrocodeFormat/BitMap/Field/FieldName",
        &[],
    ),
    (
        "Spec/ISA/OperandTypes/OperandType/MicrocodeFormat/BitMap/Field/Description",
        &[],
    ),
    (
        "Spec/ISA/OperandTypes/OperandType/MicrocodeFormat/BitMap/Field/BitLayout",
        &["RangeCount"],
    ),
    (
        "Spec/ISA/OperandTypes/OperandType/MicrocodeFormat/BitMap/Field/BitLayout/Range",
        &["Order"],
    ),
    (
        "Spec/ISA/OperandTypes/OperandType/MicrocodeFormat/BitMap/Field/BitLayout/Range/BitCount",
        &[],
    ),
    (
        "Spec/ISA/OperandTypes/OperandType/MicrocodeFormat/BitMap/Field/BitLayout/Range/BitOffset",
        &[],
    ),
    (
        "Spec/ISA/OperandTypes/OperandType/MicrocodeFormat/BitMap/Field/FieldPredefinedValues",
        &[],
    ),
    (
        "Spec/ISA/OperandTypes/OperandType/MicrocodeFormat/BitMap/Field/FieldPredefinedValues/PredefinedValue",
        &[],
    ),
    (
        "Spec/ISA/OperandTypes/OperandType/MicrocodeFormat/BitMap/Field/FieldPredefinedValues/PredefinedValue/Name",
        &[],
    ),
    (
        "Spec/ISA/OperandTypes/OperandType/MicrocodeFormat/BitMap/Field/FieldPredefinedValues/PredefinedValue/Description",
        &[],
    ),
    (
        "Spec/ISA/OperandTypes/OperandType/MicrocodeFormat/BitMap/Field/FieldPredefinedValues/PredefinedValue/Value",
        &[],
    ),
    ("Spec/ISA/OperandTypes/OperandType/Subtypes", &[]),
    ("Spec/ISA/OperandTypes/OperandType/Subtypes/Subtype", &[]),
    ("Spec/ISA/FunctionalGroups", &[]),
    ("Spec/ISA/FunctionalGroups/FunctionalGroup", &[]),
    ("Spec/ISA/FunctionalGroups/FunctionalGroup/Name", &[]),
    ("Spec/ISA/FunctionalGroups/FunctionalGroup/Description", &[]),
    ("Spec/ISA/FunctionalSubgroups", &[]),
    ("Spec/ISA/FunctionalSubgroups/FunctionalSubgroup", &[]),
    ("Spec/ISA/FunctionalSubgroups/FunctionalSubgroup/Name", &[]),
];

/// The element whose children form a condition expression tree (AMD's spelling).
const EXPRESSION_ROOT: &str =
    "Spec/ISA/Encodings/Encoding/EncodingConditions/EncodingCondition/CondtionExpression";

/// Elements of a condition expression tree, at any depth, with their attributes.
const EXPRESSION_ELEMENTS: &[(&str, &[&str])] = &[
    ("op", &["type"]),
    ("id", &["val"]),
    ("lit", &["val"]),
    ("ty", &[]),
    ("t", &["base", "size"]),
];

/// Elements whose positions later passes report; counted in document order.
pub mod tracked {
    pub const ARCHITECTURE: &str = "Spec/ISA/Architecture";
    pub const ENCODING: &str = "Spec/ISA/Encodings/Encoding";
    pub const ENCODING_CONDITION: &str =
        "Spec/ISA/Encodings/Encoding/EncodingConditions/EncodingCondition";
    pub const ENCODING_FIELD: &str = "Spec/ISA/Encodings/Encoding/MicrocodeFormat/BitMap/Field";
    pub const ENCODING_IDENTIFIER: &str =
        "Spec/ISA/Encodings/Encoding/EncodingIdentifiers/EncodingIdentifier";
    pub const INSTRUCTION: &str = "Spec/ISA/Instructions/Instruction";
    pub const INSTRUCTION_ENCODING: &str =
        "Spec/ISA/Instructions/Instruction/InstructionEncodings/InstructionEncoding";
    pub const OPERAND: &str = "Spec/ISA/Instructions/Instruction/InstructionEncodings/InstructionEncoding/Operands/Operand";
    pub const DATA_FORMAT: &str = "Spec/ISA/DataFormats/DataFormat";
    pub const OPERAND_TYPE: &str = "Spec/ISA/OperandTypes/OperandType";
    pub const ALL: &[&str] = &[
        ARCHITECTURE,
        ENCODING,
        ENCODING_CONDITION,
        ENCODING_FIELD,
        ENCODING_IDENTIFIER,
        INSTRUCTION,
        INSTRUCTION_ENCODING,
        OPERAND,
        DATA_FORMAT,
        OPERAND_TYPE,
    ];
}

/// Positions of tracked elements, in document order, so the n-th `Instruction` serde reads can be
/// reported at its line.
#[derive(Debug, Default)]
pub struct Locator {
    positions: HashMap<&'static str, Vec<Position>>,
}

impl Locator {
    /// Position of the `index`-th element with the tracked path `path`.
    pub fn get(&self, path: &str, index: usize) -> Option<Position> {
        self.positions.get(path).and_then(|v| v.get(index)).copied()
    }
}

/// Whether unknown elements and attributes are errors or warnings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strictness {
    Strict,
    Lenient,
}

/// Walks `text`; reports malformed XML as an error (and stops) and unknown vocabulary by
/// `strictness`. Returns the positions of tracked elements.
pub fn walk(
    text: &str,
    lines: &LineIndex,
    strictness: Strictness,
    findings: &mut Findings,
) -> Locator {
    let known: HashMap<&str, &[&str]> = KNOWN_ELEMENTS.iter().copied().collect();
    let expression: HashMap<&str, &[&str]> = EXPRESSION_ELEMENTS.iter().copied().collect();
    let unknown_severity = match strictness {
        Strictness::Strict => Severity::Error,
        Strictness::Lenient => Severity::Warning,
    };
    let mut locator = Locator::default();
    for path in tracked::ALL {
        locator.positions.insert(path, Vec::new());
    }

    let mut reader = Reader::from_str(text);
    reader.config_mut().check_end_names = true;
    // Stack of (path, position, expression depth); the path of expression elements is their name.
    let mut stack: Vec<(String, Position, bool)> = Vec::new();
    let mut seen_root = false;
    loop {
        let offset = reader.buffer_position() as usize;
        let event = match reader.read_event() {
            Ok(event) => event,
            Err(err) => {
                let pos = lines.position(reader.error_position() as usize);
                let element = stack
                    .last()
                    .map(|(p, _, _)| last_segment(p).to_string())
                    .unwrap_or_default();
                findings.error(Some(pos), element, format!("malformed XML: {err}"));
                return locator;
            }
        };
        let pos = lines.position(offset);
        match event {
            Event::Start(ref e) | Event::Empty(ref e) => {
                let is_empty = matches!(event, Event::Empty(_));
                let name = e.name().as_ref().to_owned();
                let (parent_path, in_expression) = match stack.last() {
                    Some((p, _, expr)) => (p.as_str(), *expr),
                    None => ("", false),
                };
                if parent_path.is_empty() {
                    if seen_root {
                        findings.error(
                            Some(pos),
                            &name,
                            "a second root element; an ISA file has one <Spec>",
                        );
                        return locator;
                    }
                    seen_root = true;
                    if name != "Spec" {
                        findings.error(
                            Some(pos),
                            &name,
                            "not an AMD ISA specification: the root element must be <Spec>",
                        );
                        return locator;
                    }
                }
                let child_in_expression = in_expression || parent_path == EXPRESSION_ROOT;
                let path = if child_in_expression || parent_path.is_empty() {
                    name.clone()
                } else {
                    format!("{parent_path}/{name}")
                };
                let allowed = if child_in_expression {
                    expression.get(name.as_str())
                } else {
                    known.get(path.as_str())
                };
                match allowed {
                    None => findings.push(
                        unknown_severity,
                        Some(pos),
                        &name,
                        format!(
                            "unknown element <{name}> inside <{}> (not in schema 1.1.1 as this reader knows it)",
                            last_segment(parent_path)
                        ),
                    ),
                    Some(attrs) => check_attributes(e, attrs, &name, pos, unknown_severity, findings),
                }
                if let Some(v) = locator.positions.get_mut(path.as_str()) {
                    v.push(pos);
                }
                if !is_empty {
                    stack.push((path, pos, child_in_expression));
                }
            }
            Event::End(_) => {
                stack.pop();
            }
            Event::Text(ref t)
                if stack.is_empty() && !t.as_ref().chars().all(char::is_whitespace) =>
            {
                findings.error(
                    Some(pos),
                    "",
                    "text outside any element: this is not an AMD ISA XML file",
                );
                return locator;
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if let Some((path, open_pos, _)) = stack.last() {
        let end = lines.position(text.len());
        findings.error(
            Some(end),
            last_segment(path),
            format!(
                "unexpected end of file: <{}> opened at line {} column {} is not closed (truncated file?)",
                last_segment(path),
                open_pos.line,
                open_pos.column
            ),
        );
    } else if !seen_root {
        findings.error(
            Some(lines.position(text.len())),
            "",
            "no XML element found: this is not an AMD ISA XML file",
        );
    }
    locator
}

fn check_attributes(
    e: &BytesStart<'_>,
    allowed: &[&str],
    element: &str,
    pos: Position,
    severity: Severity,
    findings: &mut Findings,
) {
    for attr in e.attributes() {
        match attr {
            Ok(a) => {
                let key: &str = a.key.as_ref();
                if !allowed.contains(&key) {
                    findings.push(
                        severity,
                        Some(pos),
                        element,
                        format!("unknown attribute `{key}` on <{element}>"),
                    );
                }
            }
            Err(err) => findings.error(Some(pos), element, format!("malformed attribute: {err}")),
        }
    }
}

fn last_segment(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}
