//! AMD's ISA XML (schema 1.1.1) as serde structs, one struct per element, with AMD's spellings.
//!
//! Leaf values stay strings and required children are `Option`s: the lowering pass parses and
//! checks them, so a bad value is reported with its file, line and element rather than as a bare
//! serde error.
#![allow(missing_docs)]

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct Spec {
    pub document: Option<Document>,
    #[serde(rename = "ISA")]
    pub isa: Option<Isa>,
}

#[derive(Debug, Deserialize, Default, Clone)]
#[serde(rename_all = "PascalCase")]
pub struct Document {
    pub copyright: Option<String>,
    pub sensitivity: Option<String>,
    pub license: Option<String>,
    pub release_date: Option<String>,
    pub schema_version: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct Isa {
    pub architecture: Option<Architecture>,
    #[serde(default)]
    pub encodings: Encodings,
    #[serde(default)]
    pub instructions: Instructions,
    #[serde(default)]
    pub data_formats: DataFormats,
    #[serde(default)]
    pub operand_types: OperandTypes,
    #[serde(default)]
    pub functional_groups: FunctionalGroups,
    #[serde(default)]
    pub functional_subgroups: FunctionalSubgroups,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct Architecture {
    pub architecture_name: Option<String>,
    pub architecture_id: Option<String>,
}

/// A value written in a radix given by its `Radix` attribute (`<Opcode Radix="10">3</Opcode>`).
#[derive(Debug, Deserialize, Default, Clone)]
pub struct RadixValue {
    #[serde(rename = "@Radix")]
    pub radix: Option<String>,
    #[serde(rename = "$text", default)]
    pub text: String,
}

#[derive(Debug, Deserialize, Default)]
pub struct Encodings {
    #[serde(rename = "Encoding", default)]
    pub items: Vec<Encoding>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct Encoding {
    #[serde(rename = "@Order")]
    pub order: Option<String>,
    pub encoding_name: Option<String>,
    pub bit_count: Option<String>,
    pub encoding_identifier_mask: Option<RadixValue>,
    #[serde(default)]
    pub encoding_identifiers: EncodingIdentifiers,
    #[serde(default)]
    pub encoding_conditions: EncodingConditions,
    pub description: Option<String>,
    pub microcode_format: Option<MicrocodeFormat>,
}

#[derive(Debug, Deserialize, Default)]
pub struct EncodingIdentifiers {
    #[serde(rename = "EncodingIdentifier", default)]
    pub items: Vec<RadixValue>,
}

#[derive(Debug, Deserialize, Default)]
pub struct EncodingConditions {
    #[serde(rename = "EncodingCondition", default)]
    pub items: Vec<EncodingCondition>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct EncodingCondition {
    pub condition_name: Option<String>,
    /// AMD's spelling.
    pub condtion_expression: Option<ConditionExpression>,
}

#[derive(Debug, Deserialize, Default)]
pub struct ConditionExpression {
    #[serde(rename = "$value", default)]
    pub nodes: Vec<ExprNode>,
}

/// One node of a condition expression tree.
#[derive(Debug, Deserialize)]
pub enum ExprNode {
    #[serde(rename = "op")]
    Op(OpNode),
    #[serde(rename = "id")]
    Id(ValNode),
    #[serde(rename = "lit")]
    Lit(ValNode),
    #[serde(rename = "ty")]
    Ty(TyNode),
    /// Anything else (reported by the schema pass); kept so reading does not fail.
    #[serde(other)]
    Unknown,
}

#[derive(Debug, Deserialize)]
pub struct OpNode {
    #[serde(rename = "@type")]
    pub kind: Option<String>,
    #[serde(rename = "$value", default)]
    pub children: Vec<ExprNode>,
}

#[derive(Debug, Deserialize)]
pub struct ValNode {
    #[serde(rename = "@val")]
    pub val: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct TyNode {
    pub t: Option<TNode>,
}

#[derive(Debug, Deserialize)]
pub struct TNode {
    #[serde(rename = "@base")]
    pub base: Option<String>,
    #[serde(rename = "@size")]
    pub size: Option<String>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(rename_all = "PascalCase")]
pub struct MicrocodeFormat {
    #[serde(default)]
    pub bit_map: BitMap,
}

#[derive(Debug, Deserialize, Default)]
pub struct BitMap {
    #[serde(rename = "Field", default)]
    pub fields: Vec<Field>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct Field {
    #[serde(rename = "@IsConditional")]
    pub is_conditional: Option<String>,
    pub field_name: Option<String>,
    pub description: Option<String>,
    pub bit_layout: Option<BitLayout>,
    pub field_predefined_values: Option<PredefinedValues>,
}

#[derive(Debug, Deserialize, Default)]
pub struct BitLayout {
    #[serde(rename = "@RangeCount")]
    pub range_count: Option<String>,
    #[serde(rename = "Range", default)]
    pub ranges: Vec<Range>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct Range {
    #[serde(rename = "@Order")]
    pub order: Option<String>,
    pub bit_count: Option<String>,
    pub bit_offset: Option<String>,
    pub padding: Option<Padding>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct Padding {
    pub bit_count: Option<String>,
    pub value: Option<RadixValue>,
}

#[derive(Debug, Deserialize, Default)]
pub struct Instructions {
    #[serde(rename = "Instruction", default)]
    pub items: Vec<Instruction>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct Instruction {
    pub instruction_flags: Option<InstructionFlags>,
    pub instruction_name: Option<String>,
    pub description: Option<String>,
    #[serde(default)]
    pub instruction_encodings: InstructionEncodings,
    pub functional_group: Option<InstructionFunctionalGroup>,
    pub aliased_instruction_names: Option<AliasedInstructionNames>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(rename_all = "PascalCase")]
pub struct InstructionFlags {
    pub is_branch: Option<String>,
    pub is_conditional_branch: Option<String>,
    pub is_indirect_branch: Option<String>,
    pub is_program_terminator: Option<String>,
    pub is_immediately_executed: Option<String>,
}

#[derive(Debug, Deserialize, Default)]
pub struct InstructionEncodings {
    #[serde(rename = "InstructionEncoding", default)]
    pub items: Vec<InstructionEncoding>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct InstructionEncoding {
    pub encoding_name: Option<String>,
    pub encoding_condition: Option<String>,
    pub opcode: Option<RadixValue>,
    #[serde(default)]
    pub operands: Operands,
}

#[derive(Debug, Deserialize, Default)]
pub struct Operands {
    #[serde(rename = "Operand", default)]
    pub items: Vec<Operand>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct Operand {
    #[serde(rename = "@Input")]
    pub input: Option<String>,
    #[serde(rename = "@Output")]
    pub output: Option<String>,
    #[serde(rename = "@IsImplicit")]
    pub is_implicit: Option<String>,
    #[serde(rename = "@IsBinaryMicrocodeRequired")]
    pub is_binary_microcode_required: Option<String>,
    #[serde(rename = "@Order")]
    pub order: Option<String>,
    pub field_name: Option<String>,
    pub data_format_name: Option<String>,
    pub operand_type: Option<String>,
    pub operand_size: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct InstructionFunctionalGroup {
    pub name: Option<String>,
    #[serde(default)]
    pub functional_subgroups: Subgroups,
}

#[derive(Debug, Deserialize, Default)]
pub struct Subgroups {
    #[serde(rename = "Subgroup", default)]
    pub items: Vec<String>,
}

#[derive(Debug, Deserialize, Default)]
pub struct AliasedInstructionNames {
    #[serde(rename = "InstructionName", default)]
    pub items: Vec<String>,
}

#[derive(Debug, Deserialize, Default)]
pub struct DataFormats {
    #[serde(rename = "DataFormat", default)]
    pub items: Vec<DataFormat>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct DataFormat {
    pub data_format_name: Option<String>,
    pub description: Option<String>,
    pub data_type: Option<String>,
    pub bit_count: Option<String>,
    pub component_count: Option<String>,
    #[serde(default)]
    pub data_attributes: DataAttributes,
}

#[derive(Debug, Deserialize, Default)]
pub struct DataAttributes {
    #[serde(rename = "BitMap", default)]
    pub bit_maps: Vec<DataBitMap>,
}

#[derive(Debug, Deserialize)]
pub struct DataBitMap {
    #[serde(rename = "@Order")]
    pub order: Option<String>,
    #[serde(rename = "Field", default)]
    pub fields: Vec<DataField>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct DataField {
    #[serde(rename = "@Signedness")]
    pub signedness: Option<String>,
    pub field_name: Option<String>,
    pub bit_layout: Option<BitLayout>,
}

#[derive(Debug, Deserialize, Default)]
pub struct OperandTypes {
    #[serde(rename = "OperandType", default)]
    pub items: Vec<OperandType>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct OperandType {
    #[serde(rename = "@IsPartitioned")]
    pub is_partitioned: Option<String>,
    pub operand_type_name: Option<String>,
    pub description: Option<String>,
    pub operand_predefined_values: Option<PredefinedValues>,
    pub microcode_format: Option<MicrocodeFormat>,
    pub subtypes: Option<Subtypes>,
}

#[derive(Debug, Deserialize, Default)]
pub struct PredefinedValues {
    #[serde(rename = "PredefinedValue", default)]
    pub items: Vec<PredefinedValue>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct PredefinedValue {
    pub name: Option<String>,
    pub description: Option<String>,
    pub value: Option<String>,
}

#[derive(Debug, Deserialize, Default)]
pub struct Subtypes {
    #[serde(rename = "Subtype", default)]
    pub items: Vec<String>,
}

#[derive(Debug, Deserialize, Default)]
pub struct FunctionalGroups {
    #[serde(rename = "FunctionalGroup", default)]
    pub items: Vec<FunctionalGroupDef>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct FunctionalGroupDef {
    pub name: Option<String>,
    pub description: Option<String>,
}

#[derive(Debug, Deserialize, Default)]
pub struct FunctionalSubgroups {
    #[serde(rename = "FunctionalSubgroup", default)]
    pub items: Vec<FunctionalSubgroupDef>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct FunctionalSubgroupDef {
    pub name: Option<String>,
}
