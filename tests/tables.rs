//! Invariants of the generated tables, for every generation built in.

use amdgpu_isa::Generation;
use amdgpu_isa::tables::IsaDef;

fn built() -> Vec<&'static IsaDef> {
    let isas: Vec<_> = Generation::ALL.iter().filter_map(|g| g.isa()).collect();
    assert!(
        !isas.is_empty(),
        "no generation built in: generated/ should provide at least one"
    );
    isas
}

#[test]
fn every_built_generation_knows_its_name() {
    for isa in built() {
        assert_eq!(
            Generation::from_name(isa.architecture_name),
            Some(isa.generation)
        );
        assert_eq!(
            isa.generation.isa().map(|i| i.architecture_name),
            Some(isa.architecture_name)
        );
    }
}

#[test]
fn decode_order_is_a_permutation_sorted_by_order() {
    for isa in built() {
        let mut seen = vec![false; isa.encodings.len()];
        for &i in isa.decode_order {
            assert!(!std::mem::replace(&mut seen[i as usize], true));
        }
        assert!(seen.iter().all(|&s| s));
        let orders: Vec<i32> = isa
            .decode_order
            .iter()
            .map(|&i| isa.encodings[i as usize].order)
            .collect();
        assert!(orders.windows(2).all(|w| w[0] <= w[1]), "{orders:?}");
    }
}

#[test]
fn references_resolve_and_opcode_tables_agree() {
    for isa in built() {
        for (index, inst) in isa.instructions.iter().enumerate() {
            for ie in inst.encodings {
                let enc = &isa.encodings[ie.encoding as usize];
                assert!(
                    enc.instructions_with_opcode(ie.opcode)
                        .any(|i| i as usize == index),
                    "{} {} opcode {} missing from the opcode table",
                    inst.name,
                    enc.name,
                    ie.opcode
                );
                if let Some(c) = ie.condition {
                    assert_eq!(enc.conditions[c as usize].name, ie.condition_name);
                }
                for op in ie.operands {
                    assert!((op.data_format as usize) < isa.data_formats.len());
                    assert!((op.operand_type as usize) < isa.operand_types.len());
                    if let Some(f) = op.field {
                        assert!((f as usize) < enc.fields.len());
                    }
                }
            }
        }
    }
}

#[test]
fn field_insert_and_extract_round_trip() {
    for isa in built() {
        for enc in isa.encodings {
            for f in enc.fields {
                let padding: u32 = f.ranges.iter().map(|r| u32::from(r.padding_width)).sum();
                let width = f.value_bits() - padding;
                let raw_max = if width >= 64 {
                    u64::MAX
                } else {
                    (1u64 << width) - 1
                };
                for raw in [0, 1, raw_max, raw_max / 3] {
                    // Only the first range can carry padding in AMD's data; shift raw bits above it.
                    let value = raw << padding;
                    let word = f.insert(0, value);
                    assert_eq!(word & !f.mask(), 0, "{} {} spills", enc.name, f.name);
                    assert_eq!(f.extract(word), value, "{} {}", enc.name, f.name);
                    // Setting a field leaves every other bit alone.
                    let all = u128::MAX >> (128 - u32::from(enc.bits));
                    assert_eq!(
                        f.insert(all, value) | f.mask(),
                        all,
                        "{} {}",
                        enc.name,
                        f.name
                    );
                }
            }
        }
    }
}

#[test]
fn identifiers_match_their_encoding() {
    for isa in built() {
        for enc in isa.encodings {
            for &id in enc.identifiers {
                assert!(enc.matches_identifier(id), "{}", enc.name);
            }
        }
    }
}

#[cfg(feature = "cdna3")]
#[test]
fn typed_encoder_agrees_with_field_tables() {
    use amdgpu_isa::cdna3::{self, Opcode, encodings::EncSop1};
    let word = EncSop1::s_mov_b32().with_sdst(5).with_ssrc0(1);
    let def = EncSop1::def();
    let opcode_field = &def.fields[def.opcode_field.unwrap() as usize];
    let inst = cdna3::ISA.instruction("S_MOV_B32").unwrap();
    assert_eq!(
        opcode_field.extract(u128::from(word.0)),
        u64::from(inst.encodings[0].opcode)
    );
    assert_eq!(def.field("SDST").unwrap().extract(u128::from(word.0)), 5);
    assert_eq!(word.sdst(), 5);
    assert_eq!(word.ssrc0(), 1);
    assert!(def.matches_identifier(u128::from(word.0)));
    assert_eq!(Opcode::from_name("s_mov_b32"), Some(Opcode::S_MOV_B32));
    assert_eq!(Opcode::S_MOV_B32.name(), "S_MOV_B32");
}

#[cfg(feature = "cdna3")]
#[test]
fn every_opcode_round_trips_by_name() {
    use amdgpu_isa::cdna3::Opcode;
    for op in Opcode::ALL {
        assert_eq!(Opcode::from_name(op.name()), Some(op));
        assert_eq!(Opcode::from_name(&op.name().to_ascii_lowercase()), Some(op));
    }
    assert_eq!(Opcode::from_name("V_NOT_AN_INSTRUCTION"), None);
}

#[cfg(feature = "cdna3")]
#[test]
fn semantics_default_to_unimplemented() {
    use amdgpu_isa::cdna3::{Opcode, Semantics, dispatch};
    struct Nothing;
    impl Semantics for Nothing {
        type Input = ();
        type Output = ();
    }
    let err = dispatch(&mut Nothing, Opcode::V_ADD_F32, &()).unwrap_err();
    assert_eq!(err.instruction, "V_ADD_F32");
    assert_eq!(err.generation, Generation::Cdna3);
    struct Adds(u32);
    impl Semantics for Adds {
        type Input = ();
        type Output = u32;
        fn v_add_f32(&mut self, _: &()) -> Result<u32, amdgpu_isa::tables::Unimplemented> {
            self.0 += 1;
            Ok(self.0)
        }
    }
    assert_eq!(dispatch(&mut Adds(0), Opcode::V_ADD_F32, &()), Ok(1));
}
