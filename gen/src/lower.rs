//! Validation and lowering: the serde model to the IR, every reference resolved, every number
//! parsed, and every inconsistency in AMD's data reported with file, line and element.
//!
//! Nothing is silently fixed. Where AMD's data is inconsistent but still usable as written (the
//! known quirks), the finding is a warning and the IR keeps AMD's data; where it cannot be used
//! (a dangling reference, a field outside its encoding), the finding is an error.

use std::collections::{BTreeMap, HashMap};

use crate::diag::{Findings, Position, Severity};
use crate::ir::{self, Expr, OpKind, bits_mask};
use crate::model;
use crate::schema::{Locator, tracked};

/// Lowers a parsed file. Findings go to `findings`; the IR is returned even when there are
/// errors so that callers can report everything at once.
pub fn lower(spec: &model::Spec, locator: &Locator, findings: &mut Findings) -> ir::Isa {
    let mut cx = Lowering {
        locator,
        findings,
        counters: HashMap::new(),
        repeated: Vec::new(),
    };
    let isa = cx.lower_spec(spec);
    cx.flush_repeated();
    isa
}

/// A finding that recurs over many elements (one per instruction, say), reported once.
struct Repeated {
    severity: Severity,
    message: String,
    first_position: Option<Position>,
    first_element: String,
    count: usize,
}

struct Lowering<'a> {
    locator: &'a Locator,
    findings: &'a mut Findings,
    /// How many elements of each tracked path have been visited, to look up their positions.
    counters: HashMap<&'static str, usize>,
    /// Findings reported once with a count, in order of first occurrence.
    repeated: Vec<Repeated>,
}

impl Lowering<'_> {
    /// Position of the next tracked element of kind `path` (elements are visited in document order).
    fn next_position(&mut self, path: &'static str) -> Option<Position> {
        let n = self.counters.entry(path).or_insert(0);
        let pos = self.locator.get(path, *n);
        *n += 1;
        pos
    }

    fn error(&mut self, pos: Option<Position>, element: &str, message: String) {
        self.findings.error(pos, element, message);
    }

    fn warning(&mut self, pos: Option<Position>, element: &str, message: String) {
        self.findings.warning(pos, element, message);
    }

    /// Records a finding that may recur on many elements with the same `message`.
    fn repeated(
        &mut self,
        severity: Severity,
        pos: Option<Position>,
        element: &str,
        message: String,
    ) {
        match self
            .repeated
            .iter_mut()
            .find(|r| r.severity == severity && r.message == message)
        {
            Some(r) => r.count += 1,
            None => self.repeated.push(Repeated {
                severity,
                message,
                first_position: pos,
                first_element: element.to_string(),
                count: 1,
            }),
        }
    }

    fn flush_repeated(&mut self) {
        for r in std::mem::take(&mut self.repeated) {
            let message = if r.count == 1 {
                r.message
            } else {
                format!(
                    "{} ({} occurrences; the first is shown)",
                    r.message, r.count
                )
            };
            self.findings
                .push(r.severity, r.first_position, r.first_element, message);
        }
    }

    fn required<'s>(
        &mut self,
        value: &'s Option<String>,
        what: &str,
        pos: Option<Position>,
        element: &str,
    ) -> &'s str {
        match value.as_deref() {
            Some(v) if !v.trim().is_empty() => v.trim(),
            _ => {
                self.error(pos, element, format!("missing <{what}>"));
                ""
            }
        }
    }

    fn number<T: std::str::FromStr>(
        &mut self,
        value: &Option<String>,
        what: &str,
        pos: Option<Position>,
        element: &str,
    ) -> Option<T> {
        let text = self.required(value, what, pos, element).to_string();
        if text.is_empty() {
            return None;
        }
        match text.parse::<T>() {
            Ok(v) => Some(v),
            Err(_) => {
                self.error(
                    pos,
                    element,
                    format!("<{what}> is `{text}`, not a number in range"),
                );
                None
            }
        }
    }

    fn boolean(
        &mut self,
        value: &Option<String>,
        what: &str,
        pos: Option<Position>,
        element: &str,
    ) -> bool {
        match value.as_deref().map(str::trim) {
            Some(v) if v.eq_ignore_ascii_case("true") => true,
            Some(v) if v.eq_ignore_ascii_case("false") => false,
            Some(v) => {
                self.error(
                    pos,
                    element,
                    format!("{what} is `{v}`, expected true or false"),
                );
                false
            }
            None => {
                self.error(pos, element, format!("missing {what}"));
                false
            }
        }
    }

    fn radix_value(
        &mut self,
        value: &model::RadixValue,
        what: &str,
        pos: Option<Position>,
        element: &str,
    ) -> Option<u128> {
        let radix = match value.radix.as_deref().map(str::trim) {
            None => 10,
            Some(r) => match r.parse::<u32>() {
                Ok(r @ (2 | 8 | 10 | 16)) => r,
                _ => {
                    self.error(
                        pos,
                        element,
                        format!("{what} has Radix `{r}`; expected 2, 8, 10 or 16"),
                    );
                    return None;
                }
            },
        };
        let text = value.text.trim();
        match u128::from_str_radix(text, radix) {
            Ok(v) if !text.is_empty() => Some(v),
            _ => {
                self.error(
                    pos,
                    element,
                    format!("{what} `{text}` is not a base-{radix} number of at most 128 bits"),
                );
                None
            }
        }
    }

    fn lower_spec(&mut self, spec: &model::Spec) -> ir::Isa {
        let mut isa = ir::Isa::default();
        let doc = spec.document.as_ref();
        if doc.is_none() {
            self.error(None, "Spec", "missing <Document>".into());
        }
        let doc = doc.cloned().unwrap_or_default();
        isa.release_date = doc.release_date.unwrap_or_default().trim().to_string();
        isa.schema_version = doc.schema_version.unwrap_or_default().trim().to_string();
        isa.copyright = doc.copyright.unwrap_or_default().trim().to_string();
        isa.license = doc.license.unwrap_or_default().trim().to_string();
        isa.sensitivity = doc.sensitivity.unwrap_or_default().trim().to_string();

        let Some(model_isa) = spec.isa.as_ref() else {
            self.error(None, "Spec", "missing <ISA>".into());
            return isa;
        };
        let arch_pos = self.next_position(tracked::ARCHITECTURE);
        match &model_isa.architecture {
            Some(a) => {
                isa.architecture_name = self
                    .required(
                        &a.architecture_name,
                        "ArchitectureName",
                        arch_pos,
                        "Architecture",
                    )
                    .to_string();
                isa.architecture_id = self
                    .number(
                        &a.architecture_id,
                        "ArchitectureId",
                        arch_pos,
                        "Architecture",
                    )
                    .unwrap_or(0);
            }
            None => self.error(arch_pos, "ISA", "missing <Architecture>".into()),
        }

        isa.functional_groups = model_isa
            .functional_groups
            .items
            .iter()
            .map(|g| ir::Named {
                name: g.name.clone().unwrap_or_default().trim().to_string(),
                description: g.description.clone().unwrap_or_default(),
            })
            .collect();
        isa.functional_subgroups = model_isa
            .functional_subgroups
            .items
            .iter()
            .map(|g| ir::Named {
                name: g.name.clone().unwrap_or_default().trim().to_string(),
                description: String::new(),
            })
            .collect();
        self.check_unique(
            isa.functional_groups.iter().map(|g| g.name.as_str()),
            "FunctionalGroup",
        );
        self.check_unique(
            isa.functional_subgroups.iter().map(|g| g.name.as_str()),
            "FunctionalSubgroup",
        );

        isa.data_formats = model_isa
            .data_formats
            .items
            .iter()
            .map(|d| self.lower_data_format(d))
            .collect();
        self.check_unique(
            isa.data_formats.iter().map(|d| d.name.as_str()),
            "DataFormat",
        );
        isa.operand_types = self.lower_operand_types(&model_isa.operand_types.items);
        isa.encodings = model_isa
            .encodings
            .items
            .iter()
            .map(|e| self.lower_encoding(e))
            .collect();
        self.check_unique(isa.encodings.iter().map(|e| e.name.as_str()), "Encoding");
        for i in 0..isa.encodings.len() {
            self.check_condition_references(&isa.encodings, i);
        }

        let names = Names::new(&isa);
        isa.instructions = model_isa
            .instructions
            .items
            .iter()
            .map(|inst| self.lower_instruction(inst, &isa, &names))
            .collect();
        self.check_unique(
            isa.instructions.iter().map(|i| i.name.as_str()),
            "Instruction",
        );
        self.check_identifiers(&mut isa);
        isa
    }

    fn check_unique<'s>(&mut self, names: impl Iterator<Item = &'s str>, element: &str) {
        let mut seen = HashMap::new();
        for name in names {
            *seen.entry(name).or_insert(0u32) += 1;
        }
        let mut dups: Vec<_> = seen.into_iter().filter(|(_, n)| *n > 1).collect();
        dups.sort();
        for (name, n) in dups {
            self.error(
                None,
                &format!("{element} {name}"),
                format!("the name `{name}` is declared {n} times"),
            );
        }
    }

    fn lower_ranges(
        &mut self,
        layout: &Option<model::BitLayout>,
        pos: Option<Position>,
        element: &str,
    ) -> Vec<ir::BitRange> {
        let Some(layout) = layout else {
            self.error(pos, element, "missing <BitLayout>".into());
            return Vec::new();
        };
        let mut ranges = Vec::new();
        for r in &layout.ranges {
            let order: i64 = self
                .number(&r.order, "Range/@Order", pos, element)
                .unwrap_or(0);
            let width = self
                .number(&r.bit_count, "BitCount", pos, element)
                .unwrap_or(0);
            let offset = self
                .number(&r.bit_offset, "BitOffset", pos, element)
                .unwrap_or(0);
            let (padding_width, padding_value) = match &r.padding {
                None => (0, 0),
                Some(p) => {
                    let w = self
                        .number(&p.bit_count, "Padding/BitCount", pos, element)
                        .unwrap_or(0);
                    let v = match &p.value {
                        Some(v) => self
                            .radix_value(v, "Padding/Value", pos, element)
                            .unwrap_or(0),
                        None => {
                            self.error(pos, element, "missing <Padding/Value>".into());
                            0
                        }
                    };
                    (w, v as u64)
                }
            };
            if width == 0 {
                self.error(pos, element, "a bit range of width 0".into());
            }
            ranges.push((
                order,
                ir::BitRange {
                    offset,
                    width,
                    padding_width,
                    padding_value,
                },
            ));
        }
        if let Some(count) = &layout.range_count {
            if count.trim().parse::<usize>().ok() != Some(ranges.len()) {
                self.error(
                    pos,
                    element,
                    format!(
                        "RangeCount is {count} but {} <Range>s are given",
                        ranges.len()
                    ),
                );
            }
        }
        ranges.sort_by_key(|(order, _)| *order);
        let orders: Vec<i64> = ranges.iter().map(|(o, _)| *o).collect();
        if orders.windows(2).any(|w| w[0] == w[1]) {
            self.error(
                pos,
                element,
                format!("two <Range>s share an Order: {orders:?}"),
            );
        }
        ranges.into_iter().map(|(_, r)| r).collect()
    }

    fn lower_predefined(
        &mut self,
        values: &Option<model::PredefinedValues>,
        pos: Option<Position>,
        element: &str,
    ) -> Vec<ir::PredefinedValue> {
        let Some(values) = values else {
            return Vec::new();
        };
        values
            .items
            .iter()
            .map(|v| {
                let name = self
                    .required(&v.name, "PredefinedValue/Name", pos, element)
                    .to_string();
                let value = self
                    .number(&v.value, "PredefinedValue/Value", pos, element)
                    .unwrap_or(0);
                ir::PredefinedValue {
                    name,
                    description: v.description.clone().unwrap_or_default(),
                    value,
                }
            })
            .collect()
    }

    fn lower_field(&mut self, f: &model::Field, pos: Option<Position>, owner: &str) -> ir::Field {
        let name = f.field_name.clone().unwrap_or_default().trim().to_string();
        let element = format!("{owner} / Field {name}");
        if name.is_empty() {
            self.error(pos, &element, "missing <FieldName>".into());
        }
        let conditional = self.boolean(&f.is_conditional, "IsConditional", pos, &element);
        let ranges = self.lower_ranges(&f.bit_layout, pos, &element);
        let predefined = self.lower_predefined(&f.field_predefined_values, pos, &element);
        ir::Field {
            name,
            description: f.description.clone().unwrap_or_default(),
            conditional,
            ranges,
            predefined,
        }
    }

    fn lower_data_format(&mut self, d: &model::DataFormat) -> ir::DataFormat {
        let pos = self.next_position(tracked::DATA_FORMAT);
        let name = d
            .data_format_name
            .clone()
            .unwrap_or_default()
            .trim()
            .to_string();
        let element = format!("DataFormat {name}");
        if name.is_empty() {
            self.error(pos, &element, "missing <DataFormatName>".into());
        }
        let bit_count = self
            .number(&d.bit_count, "BitCount", pos, &element)
            .unwrap_or(0);
        let component_count = self
            .number(&d.component_count, "ComponentCount", pos, &element)
            .unwrap_or(0);
        let mut bit_maps = Vec::new();
        for bm in &d.data_attributes.bit_maps {
            let order = self
                .number(&bm.order, "BitMap/@Order", pos, &element)
                .unwrap_or(0);
            let mut fields = Vec::new();
            for f in &bm.fields {
                let fname = f.field_name.clone().unwrap_or_default().trim().to_string();
                let signedness = f
                    .signedness
                    .as_deref()
                    .map(str::trim)
                    .unwrap_or("")
                    .to_string();
                let ranges =
                    self.lower_ranges(&f.bit_layout, pos, &format!("{element} / Field {fname}"));
                fields.push(ir::DataField {
                    name: fname,
                    signedness,
                    ranges,
                });
            }
            bit_maps.push(ir::DataBitMap { order, fields });
        }
        ir::DataFormat {
            name,
            description: d.description.clone().unwrap_or_default(),
            data_type: d.data_type.clone().unwrap_or_default().trim().to_string(),
            bit_count,
            component_count,
            bit_maps,
        }
    }

    fn lower_operand_types(&mut self, items: &[model::OperandType]) -> Vec<ir::OperandType> {
        let positions: Vec<_> = items
            .iter()
            .map(|_| self.next_position(tracked::OPERAND_TYPE))
            .collect();
        let mut out: Vec<ir::OperandType> = items
            .iter()
            .zip(&positions)
            .map(|(t, &pos)| {
                let name = t
                    .operand_type_name
                    .clone()
                    .unwrap_or_default()
                    .trim()
                    .to_string();
                let element = format!("OperandType {name}");
                if name.is_empty() {
                    self.error(pos, &element, "missing <OperandTypeName>".into());
                }
                let partitioned = self.boolean(&t.is_partitioned, "IsPartitioned", pos, &element);
                let predefined = self.lower_predefined(&t.operand_predefined_values, pos, &element);
                let fields = t
                    .microcode_format
                    .as_ref()
                    .map(|m| {
                        m.bit_map
                            .fields
                            .iter()
                            .map(|f| self.lower_field(f, pos, &element))
                            .collect()
                    })
                    .unwrap_or_default();
                ir::OperandType {
                    name,
                    description: t.description.clone().unwrap_or_default(),
                    partitioned,
                    predefined,
                    fields,
                    subtypes: Vec::new(),
                }
            })
            .collect();
        self.check_unique(out.iter().map(|t| t.name.as_str()), "OperandType");
        let index: HashMap<String, usize> = out
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name.clone(), i))
            .collect();
        for (i, t) in items.iter().enumerate() {
            for sub in t.subtypes.iter().flat_map(|s| &s.items) {
                let sub = sub.trim();
                match index.get(sub) {
                    Some(&j) => out[i].subtypes.push(j),
                    None => {
                        let element = format!("OperandType {} / Subtype", out[i].name);
                        self.error(
                            positions[i],
                            &element,
                            format!("subtype `{sub}` is not a declared OperandType"),
                        );
                    }
                }
            }
        }
        out
    }

    fn lower_encoding(&mut self, e: &model::Encoding) -> ir::Encoding {
        let pos = self.next_position(tracked::ENCODING);
        let name = e
            .encoding_name
            .clone()
            .unwrap_or_default()
            .trim()
            .to_string();
        let element = format!("Encoding {name}");
        if name.is_empty() {
            self.error(pos, &element, "missing <EncodingName>".into());
        }
        let order = self
            .number(&e.order, "@Order", pos, &element)
            .unwrap_or(i32::MAX);
        let bit_count: u32 = self
            .number(&e.bit_count, "BitCount", pos, &element)
            .unwrap_or(0);
        if bit_count == 0 || bit_count > 128 || bit_count % 32 != 0 {
            self.error(
                pos,
                &element,
                format!(
                    "BitCount {bit_count}: this reader handles encodings of 32, 64, 96 or 128 bits"
                ),
            );
        }
        let width_mask = bits_mask(bit_count);
        let check_width =
            |cx: &mut Self, v: &model::RadixValue, what: &str, p: Option<Position>| -> u128 {
                let parsed = cx.radix_value(v, what, p, &element).unwrap_or(0);
                if v.radix.as_deref().map(str::trim) == Some("2")
                    && v.text.trim().len() as u32 != bit_count
                {
                    cx.error(
                        p,
                        &element,
                        format!(
                            "{what} has {} binary digits; the encoding is {bit_count} bits wide",
                            v.text.trim().len()
                        ),
                    );
                }
                if parsed & !width_mask != 0 {
                    cx.error(
                        p,
                        &element,
                        format!("{what} sets bits beyond the encoding's {bit_count} bits"),
                    );
                }
                parsed
            };
        let identifier_mask = match &e.encoding_identifier_mask {
            Some(m) => check_width(self, m, "EncodingIdentifierMask", pos),
            None => {
                self.error(pos, &element, "missing <EncodingIdentifierMask>".into());
                0
            }
        };
        let mut identifiers = Vec::new();
        let mut identifier_positions = Vec::new();
        for ident in &e.encoding_identifiers.items {
            let p = self.next_position(tracked::ENCODING_IDENTIFIER);
            identifiers.push(check_width(self, ident, "EncodingIdentifier", p));
            identifier_positions.push(p);
        }
        let mut conditions: Vec<ir::Condition> = Vec::new();
        for c in &e.encoding_conditions.items {
            let p = self.next_position(tracked::ENCODING_CONDITION);
            let cname = c
                .condition_name
                .clone()
                .unwrap_or_default()
                .trim()
                .to_string();
            let celement = format!("{element} / EncodingCondition {cname}");
            if cname.is_empty() {
                self.error(p, &celement, "missing <ConditionName>".into());
            }
            let expr = match &c.condtion_expression {
                Some(x) if x.nodes.len() == 1 => self.lower_expr(&x.nodes[0], p, &celement),
                Some(x) => {
                    self.error(
                        p,
                        &celement,
                        format!(
                            "<CondtionExpression> holds {} nodes; expected one",
                            x.nodes.len()
                        ),
                    );
                    Expr::Lit(0)
                }
                None => {
                    self.error(p, &celement, "missing <CondtionExpression>".into());
                    Expr::Lit(0)
                }
            };
            if let Some(prev) = conditions.iter().find(|k| k.name == cname) {
                let same = if prev.expr == expr {
                    "identical"
                } else {
                    "different"
                };
                self.warning(
                    p,
                    &celement,
                    format!("condition `{cname}` is declared again, with {same} expression (AMD data quirk); the first declaration is used"),
                );
                continue;
            }
            conditions.push(ir::Condition { name: cname, expr });
        }
        let mut fields = Vec::new();
        for f in e.microcode_format.iter().flat_map(|m| &m.bit_map.fields) {
            let p = self.next_position(tracked::ENCODING_FIELD);
            fields.push(self.lower_field(f, p, &element));
        }
        if e.microcode_format.is_none() {
            self.error(pos, &element, "missing <MicrocodeFormat>".into());
        }
        self.check_field_layout(&fields, bit_count, pos, &element);
        let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
        for (i, n) in names.iter().enumerate() {
            if names[..i].contains(n) {
                self.error(pos, &element, format!("field `{n}` is declared twice"));
            }
        }
        ir::Encoding {
            name,
            description: e.description.clone().unwrap_or_default(),
            order,
            bit_count,
            identifier_mask,
            identifiers,
            identifier_positions,
            conditions,
            fields,
            opcode_field: None,
            position: pos,
        }
    }

    /// Every range fits in the encoding; no two fields share a bit.
    fn check_field_layout(
        &mut self,
        fields: &[ir::Field],
        bit_count: u32,
        pos: Option<Position>,
        element: &str,
    ) {
        let mut owner: BTreeMap<u32, &str> = BTreeMap::new();
        for f in fields {
            for r in &f.ranges {
                if r.offset + r.width > bit_count {
                    self.error(
                        pos,
                        &format!("{element} / Field {}", f.name),
                        format!(
                            "bits {}..{} lie outside the {bit_count}-bit encoding",
                            r.offset,
                            r.offset + r.width
                        ),
                    );
                    continue;
                }
                for bit in r.offset..r.offset + r.width {
                    if let Some(other) = owner.insert(bit, &f.name) {
                        if other != f.name {
                            self.error(
                                pos,
                                &format!("{element} / Field {}", f.name),
                                format!("bit {bit} is also part of field `{other}`"),
                            );
                            break;
                        }
                    }
                }
            }
        }
    }

    fn lower_expr(&mut self, node: &model::ExprNode, pos: Option<Position>, element: &str) -> Expr {
        match node {
            model::ExprNode::Id(v) => Expr::Id(v.val.clone().unwrap_or_default()),
            model::ExprNode::Lit(v) => {
                let text = v.val.clone().unwrap_or_default();
                match text.trim().parse::<i64>() {
                    Ok(n) => Expr::Lit(n),
                    Err(_) => {
                        self.error(pos, element, format!("lit `{text}` is not an integer"));
                        Expr::Lit(0)
                    }
                }
            }
            model::ExprNode::Op(op) => {
                let kind = op.kind.clone().unwrap_or_default();
                let Some(op_kind) = OpKind::from_xml(kind.trim()) else {
                    self.error(
                        pos,
                        element,
                        format!("unknown operator `{kind}` in a condition expression"),
                    );
                    return Expr::Lit(0);
                };
                let mut args = Vec::new();
                let mut ty = None;
                for child in &op.children {
                    match child {
                        model::ExprNode::Ty(t) => ty = self.lower_ty(t, pos, element),
                        model::ExprNode::Unknown => {}
                        other => args.push(self.lower_expr(other, pos, element)),
                    }
                }
                let arity_ok = match op_kind {
                    OpKind::ConsArray => true,
                    OpKind::Not => args.len() == 1,
                    _ => args.len() == 2,
                };
                if !arity_ok {
                    self.error(
                        pos,
                        element,
                        format!("operator `{kind}` has {} operands", args.len()),
                    );
                }
                Expr::Op {
                    op: op_kind,
                    args,
                    ty,
                }
            }
            model::ExprNode::Ty(_) => {
                self.error(pos, element, "a <ty> outside an <op>".into());
                Expr::Lit(0)
            }
            model::ExprNode::Unknown => Expr::Lit(0),
        }
    }

    fn lower_ty(
        &mut self,
        t: &model::TyNode,
        pos: Option<Position>,
        element: &str,
    ) -> Option<ir::Ty> {
        let t = t.t.as_ref()?;
        let signed = match t.base.as_deref().map(str::trim) {
            Some("I") => true,
            Some("U") => false,
            other => {
                self.error(
                    pos,
                    element,
                    format!("type base `{}`; expected I or U", other.unwrap_or("")),
                );
                return None;
            }
        };
        let bits = self.number(&t.size, "t/@size", pos, element)?;
        Some(ir::Ty { signed, bits })
    }

    /// `.fieldderef(.fieldderef(INST, ENC), FIELD)` must name an encoding and one of its fields.
    fn check_condition_references(&mut self, encodings: &[ir::Encoding], index: usize) {
        let enc = &encodings[index];
        for c in &enc.conditions {
            let mut refs = Vec::new();
            collect_field_refs(&c.expr, &mut refs);
            for (enc_name, field) in refs {
                let element = format!("Encoding {} / EncodingCondition {}", enc.name, c.name);
                let target = match resolve_encoding_ref(encodings, &enc_name) {
                    Some(t) => Some(t),
                    None if enc.name.starts_with(enc_name.as_str()) => {
                        self.warning(
                            enc.position,
                            &element,
                            format!(
                                "condition refers to encoding `{enc_name}`, which is not declared; read as {} itself, whose name begins with it",
                                enc.name
                            ),
                        );
                        Some(index)
                    }
                    None => None,
                };
                match target {
                    None => self.error(enc.position, &element, format!("condition refers to encoding `{enc_name}`, which is not declared")),
                    Some(target) if !encodings[target].fields.iter().any(|f| f.name == field) => self.error(
                        enc.position,
                        &element,
                        format!("condition refers to field `{field}` of `{}`, which has no such field", encodings[target].name),
                    ),
                    Some(_) => {}
                }
            }
        }
    }

    fn lower_instruction(
        &mut self,
        inst: &model::Instruction,
        isa: &ir::Isa,
        names: &Names,
    ) -> ir::Instruction {
        let pos = self.next_position(tracked::INSTRUCTION);
        let name = inst
            .instruction_name
            .clone()
            .unwrap_or_default()
            .trim()
            .to_string();
        let element = format!("Instruction {name}");
        if name.is_empty() {
            self.error(pos, &element, "missing <InstructionName>".into());
        }
        let flags = match &inst.instruction_flags {
            Some(f) => ir::InstructionFlags {
                is_branch: self.boolean(&f.is_branch, "IsBranch", pos, &element),
                is_conditional_branch: self.boolean(
                    &f.is_conditional_branch,
                    "IsConditionalBranch",
                    pos,
                    &element,
                ),
                is_indirect_branch: self.boolean(
                    &f.is_indirect_branch,
                    "IsIndirectBranch",
                    pos,
                    &element,
                ),
                is_program_terminator: self.boolean(
                    &f.is_program_terminator,
                    "IsProgramTerminator",
                    pos,
                    &element,
                ),
                is_immediately_executed: self.boolean(
                    &f.is_immediately_executed,
                    "IsImmediatelyExecuted",
                    pos,
                    &element,
                ),
            },
            None => {
                self.error(pos, &element, "missing <InstructionFlags>".into());
                ir::InstructionFlags::default()
            }
        };
        let (functional_group, functional_subgroups) = match &inst.functional_group {
            None => {
                self.error(pos, &element, "missing <FunctionalGroup>".into());
                (String::new(), Vec::new())
            }
            Some(g) => {
                let gname = g.name.clone().unwrap_or_default().trim().to_string();
                if !names.groups.contains_key(gname.as_str()) {
                    self.repeated(
                        Severity::Warning,
                        pos,
                        &element,
                        format!("functional group `{gname}` is not declared in <FunctionalGroups>"),
                    );
                }
                let mut subs = Vec::new();
                for s in &g.functional_subgroups.items {
                    let s = s.trim().to_string();
                    if !names.subgroups.contains_key(s.as_str()) {
                        self.repeated(
                            Severity::Warning,
                            pos,
                            &element,
                            format!(
                                "functional subgroup `{s}` is not declared in <FunctionalSubgroups>"
                            ),
                        );
                    }
                    subs.push(s);
                }
                (gname, subs)
            }
        };
        let encodings = inst
            .instruction_encodings
            .items
            .iter()
            .filter_map(|ie| self.lower_instruction_encoding(ie, isa, names, &element))
            .collect();
        let aliases = inst
            .aliased_instruction_names
            .iter()
            .flat_map(|a| &a.items)
            .map(|s| s.trim().to_string())
            .collect();
        ir::Instruction {
            name,
            description: inst.description.clone().unwrap_or_default(),
            flags,
            encodings,
            functional_group,
            functional_subgroups,
            aliases,
            position: pos,
        }
    }

    fn lower_instruction_encoding(
        &mut self,
        ie: &model::InstructionEncoding,
        isa: &ir::Isa,
        names: &Names,
        inst_element: &str,
    ) -> Option<ir::InstructionEncoding> {
        let pos = self.next_position(tracked::INSTRUCTION_ENCODING);
        let enc_name = ie
            .encoding_name
            .clone()
            .unwrap_or_default()
            .trim()
            .to_string();
        let element = format!("{inst_element} / InstructionEncoding {enc_name}");
        // Operand positions must be consumed even when this encoding is dropped.
        let operand_positions: Vec<_> = ie
            .operands
            .items
            .iter()
            .map(|_| self.next_position(tracked::OPERAND))
            .collect();
        let Some(&encoding) = names.encodings.get(enc_name.as_str()) else {
            self.error(
                pos,
                &element,
                format!("encoding `{enc_name}` is not declared in <Encodings>"),
            );
            return None;
        };
        let enc = &isa.encodings[encoding];
        let condition_name = ie
            .encoding_condition
            .clone()
            .unwrap_or_default()
            .trim()
            .to_string();
        let condition = enc.conditions.iter().position(|c| c.name == condition_name);
        if condition.is_none() {
            let message = if enc.conditions.is_empty() {
                format!(
                    "names condition `{condition_name}`, but {enc_name} declares no conditions (AMD data quirk); kept unresolved"
                )
            } else {
                let declared: Vec<&str> = enc.conditions.iter().map(|c| c.name.as_str()).collect();
                format!(
                    "names condition `{condition_name}`, which {enc_name} does not declare (it declares {}); kept unresolved",
                    declared.join(", ")
                )
            };
            self.repeated(Severity::Warning, pos, &element, message);
        }
        let opcode = match &ie.opcode {
            Some(v) => self.radix_value(v, "Opcode", pos, &element).unwrap_or(0),
            None => {
                self.error(pos, &element, "missing <Opcode>".into());
                0
            }
        };
        let opcode = u32::try_from(opcode).unwrap_or_else(|_| {
            self.error(
                pos,
                &element,
                format!("Opcode {opcode} does not fit 32 bits"),
            );
            0
        });
        let mut operands = Vec::new();
        for (op, &opos) in ie.operands.items.iter().zip(&operand_positions) {
            let order = self
                .number(&op.order, "Operand/@Order", opos, &element)
                .unwrap_or(0);
            let oelement = format!("{element} / Operand {order}");
            let field = match op.field_name.as_deref().map(str::trim) {
                None | Some("") => None,
                Some(f) => match enc.fields.iter().position(|x| x.name == f) {
                    Some(i) => Some(i),
                    None => {
                        self.error(
                            opos,
                            &oelement,
                            format!("field `{f}` is not a field of {enc_name}"),
                        );
                        None
                    }
                },
            };
            let df_name = self
                .required(&op.data_format_name, "DataFormatName", opos, &oelement)
                .to_string();
            let data_format = names
                .data_formats
                .get(df_name.as_str())
                .copied()
                .unwrap_or_else(|| {
                    if !df_name.is_empty() {
                        self.error(
                            opos,
                            &oelement,
                            format!("data format `{df_name}` is not declared in <DataFormats>"),
                        );
                    }
                    0
                });
            let ot_name = self
                .required(&op.operand_type, "OperandType", opos, &oelement)
                .to_string();
            let operand_type = names
                .operand_types
                .get(ot_name.as_str())
                .copied()
                .unwrap_or_else(|| {
                    if !ot_name.is_empty() {
                        self.error(
                            opos,
                            &oelement,
                            format!("operand type `{ot_name}` is not declared in <OperandTypes>"),
                        );
                    }
                    0
                });
            let size = self
                .number(&op.operand_size, "OperandSize", opos, &oelement)
                .unwrap_or(0);
            operands.push(ir::Operand {
                order,
                field,
                data_format,
                operand_type,
                size,
                input: self.boolean(&op.input, "Input", opos, &oelement),
                output: self.boolean(&op.output, "Output", opos, &oelement),
                implicit: self.boolean(&op.is_implicit, "IsImplicit", opos, &oelement),
                binary_microcode_required: self.boolean(
                    &op.is_binary_microcode_required,
                    "IsBinaryMicrocodeRequired",
                    opos,
                    &oelement,
                ),
            });
        }
        operands.sort_by_key(|o| o.order);
        Some(ir::InstructionEncoding {
            encoding,
            condition,
            condition_name,
            opcode,
            operands,
        })
    }

    /// Identifiers lie inside their mask and pair up with the opcodes instructions give for the
    /// encoding; records the field that carries the opcode.
    fn check_identifiers(&mut self, isa: &mut ir::Isa) {
        let mut opcodes: Vec<Vec<u32>> = vec![Vec::new(); isa.encodings.len()];
        for inst in &isa.instructions {
            for ie in &inst.encodings {
                opcodes[ie.encoding].push(ie.opcode);
            }
        }
        for (enc, ops) in isa.encodings.iter_mut().zip(&opcodes) {
            let element = format!("Encoding {}", enc.name);
            let outside: Vec<usize> = (0..enc.identifiers.len())
                .filter(|&i| enc.identifiers[i] & !enc.identifier_mask != 0)
                .collect();
            if !outside.is_empty() {
                self.warning(
                    enc.identifier_positions[outside[0]].or(enc.position),
                    &element,
                    format!(
                        "{} of {} EncodingIdentifiers set bits outside EncodingIdentifierMask (AMD data quirk); the decoder matches identifiers under the mask",
                        outside.len(),
                        enc.identifiers.len()
                    ),
                );
            }
            enc.opcode_field = infer_opcode_field(enc, ops);
            let Some(f) = enc.opcode_field else {
                if !(ops.len() == 1 && enc.identifiers.len() == 1) {
                    self.warning(
                        enc.position,
                        &element,
                        "no field inside EncodingIdentifierMask carries the instructions' opcodes"
                            .into(),
                    );
                }
                continue;
            };
            let field = &enc.fields[f];
            let ident_opcodes: Vec<u64> = enc
                .identifiers
                .iter()
                .map(|&i| extract(field, i & enc.identifier_mask))
                .collect();
            let missing: Vec<u32> = ops
                .iter()
                .copied()
                .filter(|&op| !ident_opcodes.contains(&(op as u64)))
                .collect();
            let unused = ident_opcodes
                .iter()
                .filter(|&&v| !ops.iter().any(|&op| op as u64 == v))
                .count();
            if !missing.is_empty() {
                self.warning(
                    enc.position,
                    &element,
                    format!(
                        "{} instruction opcode(s) have no EncodingIdentifier (field {}): {:?}",
                        missing.len(),
                        field.name,
                        &missing[..missing.len().min(8)]
                    ),
                );
            }
            if unused > 0 {
                self.warning(
                    enc.position,
                    &element,
                    format!("{unused} EncodingIdentifier(s) give an opcode (field {}) that no instruction uses in this encoding", field.name),
                );
            }
        }
    }
}

/// The field inside the identifier mask whose values, across the identifiers, match the most
/// instruction opcodes of the encoding (ties: the wider field). AMD does not say which field is
/// the opcode; the identifiers do.
pub fn infer_opcode_field(enc: &ir::Encoding, opcodes: &[u32]) -> Option<usize> {
    let mut best: Option<(usize, u32, usize)> = None;
    for (i, f) in enc.fields.iter().enumerate() {
        let mask = f.mask();
        if mask == 0 || mask & enc.identifier_mask != mask {
            continue;
        }
        let matches = enc
            .identifiers
            .iter()
            .filter(|&&id| {
                opcodes
                    .iter()
                    .any(|&op| op as u64 == extract(f, id & enc.identifier_mask))
            })
            .count();
        if matches == 0 {
            continue;
        }
        let width = f.value_bits();
        if best.is_none_or(|(_, w, m)| (matches, width) > (m, w)) {
            best = Some((i, width, matches));
        }
    }
    best.map(|(i, _, _)| i)
}

/// The value of `field` in `word`, without padding bits.
pub fn extract(field: &ir::Field, word: u128) -> u64 {
    let mut value = 0u64;
    let mut shift = 0;
    for r in &field.ranges {
        let bits = ((word >> r.offset) & bits_mask(r.width)) as u64;
        value |= bits << shift;
        shift += r.width;
    }
    value
}

/// Encoding names referenced by conditions: `.fieldderef(.fieldderef(INST, X), F)`.
fn collect_field_refs(expr: &Expr, out: &mut Vec<(String, String)>) {
    if let Expr::Op { op, args, .. } = expr {
        if *op == OpKind::FieldDeref {
            if let [
                Expr::Op {
                    op: OpKind::FieldDeref,
                    args: inner,
                    ..
                },
                Expr::Id(field),
            ] = args.as_slice()
            {
                if let [Expr::Id(_), Expr::Id(enc)] = inner.as_slice() {
                    out.push((enc.clone(), field.clone()));
                    return;
                }
            }
        }
        for a in args {
            collect_field_refs(a, out);
        }
    }
}

/// Conditions name encodings by their short name (`VOP1` for `ENC_VOP1`).
pub fn resolve_encoding_ref(encodings: &[ir::Encoding], name: &str) -> Option<usize> {
    encodings.iter().position(|e| e.name == name).or_else(|| {
        encodings
            .iter()
            .position(|e| e.name.strip_prefix("ENC_") == Some(name))
    })
}

/// Name lookups built once the declarations are lowered.
struct Names<'a> {
    encodings: HashMap<&'a str, usize>,
    data_formats: HashMap<&'a str, usize>,
    operand_types: HashMap<&'a str, usize>,
    groups: HashMap<&'a str, usize>,
    subgroups: HashMap<&'a str, usize>,
}

impl<'a> Names<'a> {
    fn new(isa: &'a ir::Isa) -> Self {
        fn index<'a>(names: impl Iterator<Item = &'a str>) -> HashMap<&'a str, usize> {
            let mut map = HashMap::new();
            for (i, n) in names.enumerate() {
                map.entry(n).or_insert(i);
            }
            map
        }
        Names {
            encodings: index(isa.encodings.iter().map(|e| e.name.as_str())),
            data_formats: index(isa.data_formats.iter().map(|e| e.name.as_str())),
            operand_types: index(isa.operand_types.iter().map(|e| e.name.as_str())),
            groups: index(isa.functional_groups.iter().map(|e| e.name.as_str())),
            subgroups: index(isa.functional_subgroups.iter().map(|e| e.name.as_str())),
        }
    }
}
