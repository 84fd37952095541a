//! Decoder properties that need no oracle: every sample decodes to the instruction it encodes,
//! re-encoding a decoded instruction from its fields gives back its bytes, and no input panics.

use amdgpu_isa::Generation;
use amdgpu_isa::decode::{DecodeError, Decoder};
use amdgpu_isa::samples::samples;
use amdgpu_isa_gen::oracle::XorShift;

fn decoders() -> Vec<Decoder> {
    let d: Vec<_> = Generation::ALL
        .iter()
        .filter_map(|g| Decoder::new(*g))
        .collect();
    assert!(!d.is_empty(), "no generation built in");
    d
}

#[test]
fn samples_decode_to_their_instruction_and_round_trip() {
    for decoder in decoders() {
        let isa = decoder.isa();
        for flavour in 0..3 {
            for s in samples(isa, flavour) {
                let inst = isa.instructions[usize::from(s.instruction)].name;
                let enc = &isa.encodings[usize::from(s.encoding)];
                let opcode = isa.instructions[usize::from(s.instruction)].encodings
                    [usize::from(s.variant)]
                .opcode;
                if enc.identifier_for_opcode(opcode).is_none() {
                    // No identifier carries this opcode (RDNA 3 VOPD's Y-only opcodes, CDNA 4's
                    // scaled MFMA): which instruction the word is cannot be read from AMD's
                    // identifiers; dual-issue decoding is not done yet.
                    continue;
                }
                let d = decoder
                    .decode(&s.bytes(), 0)
                    .unwrap_or_else(|e| panic!("{inst}: {e}"));
                assert_eq!(d.name(), inst, "{:?}: {:02x?}", isa.generation, s.bytes());
                assert_eq!(usize::from(d.len), s.len, "{inst}");
                assert_eq!(d.bytes().collect::<Vec<_>>(), s.bytes(), "{inst}");
                // Re-encode: identifier bits, then every field's value.
                let enc = d.encoding_def();
                let mut bits = d.bits() & enc.identifier_mask;
                for f in enc.fields {
                    bits = f.insert(bits, f.extract(d.bits()));
                }
                assert_eq!(
                    bits,
                    d.bits(),
                    "{inst} in {}: bits no field covers",
                    enc.name
                );
            }
        }
    }
}

#[test]
fn random_streams_never_panic_and_always_progress() {
    for decoder in decoders() {
        let isa = decoder.isa();
        let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
        let base: Vec<u8> = samples(isa, 0).iter().flat_map(|s| s.bytes()).collect();
        for round in 0..200 {
            // Half pure noise, half samples with flipped bits; odd lengths included.
            let len = 1 + (rng.next_u64() % 4096) as usize;
            let bytes: Vec<u8> = if round % 2 == 0 {
                (0..len).map(|_| rng.next_u64() as u8).collect()
            } else {
                let start = (rng.next_u64() as usize) % base.len().saturating_sub(len).max(1);
                let mut v = base[start..(start + len).min(base.len())].to_vec();
                for _ in 0..v.len() / 16 + 1 {
                    let i = (rng.next_u64() as usize) % v.len();
                    v[i] ^= 1 << (rng.next_u64() % 8);
                }
                v
            };
            let mut consumed = 0;
            for r in decoder.decode_all(&bytes) {
                match r {
                    Ok(d) => {
                        assert!(d.len >= 4 && d.len % 4 == 0);
                        consumed += usize::from(d.len);
                    }
                    Err(DecodeError::PartialWord { available, .. }) => consumed += available,
                    Err(e) => {
                        assert!(!e.to_string().is_empty());
                        consumed += 4;
                    }
                }
            }
            assert!(consumed >= bytes.len(), "stream not fully consumed");
        }
    }
}

#[test]
fn errors_say_where() {
    for decoder in decoders() {
        let e = decoder.decode(&[0x01, 0x02], 8).unwrap_err();
        assert_eq!(
            e,
            DecodeError::PartialWord {
                offset: 8,
                available: 2
            }
        );
        assert!(e.to_string().contains("0x8"));
        // A sample cut short is truncated, not misread.
        let long = samples(decoder.isa(), 0)
            .into_iter()
            .find(|s| s.len > 4)
            .unwrap();
        let bytes = long.bytes();
        match decoder.decode(&bytes[..4], 0) {
            Err(DecodeError::Truncated {
                needed, available, ..
            }) => {
                assert_eq!((needed, available), (long.len, 4));
            }
            Ok(d) => assert_eq!(d.len, 4, "a shorter encoding also matches"),
            Err(e) => panic!("{e}"),
        }
    }
}
