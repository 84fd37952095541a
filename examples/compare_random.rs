//! Measures agreement with llvm-mc-22 on seeded random instructions: every sample with random
//! bits outside its identifier (so that it stays the same instruction family), decoded by both.
//! `cargo run --release --example compare_random -- gfx942 [seed]`.

#[path = "../tests/support/llvm.rs"]
mod llvm;

use amdgpu_isa::Generation;
use amdgpu_isa::decode::Decoder;
use amdgpu_isa::format;
use amdgpu_isa::samples::samples;

fn main() {
    let target = std::env::args().nth(1).unwrap_or_else(|| "gfx942".into());
    let mut state: u64 = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x1234_5678_9abc_def1);
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let g = Generation::from_name(&target).expect("target");
    let isa = g.isa().expect("built");
    let decoder = Decoder::new(g).unwrap();
    let mut inputs = Vec::new();
    for s in samples(isa, 0) {
        let enc = &isa.encodings[usize::from(s.encoding)];
        let noise = (u128::from(next()) | u128::from(next()) << 64) & !enc.identifier_mask;
        let bits =
            (s.bits & enc.identifier_mask) | (noise & (u128::MAX >> (128 - u32::from(enc.bits))));
        let bytes = bits.to_le_bytes()[..s.len].to_vec();
        if decoder
            .decode(&bytes, 0)
            .is_ok_and(|d| usize::from(d.len) == bytes.len())
        {
            inputs.push(bytes);
        }
    }
    // One llvm-mc run per instruction: with random operands llvm-mc rejects and re-reads words,
    // and its encoding comments stop telling reliably where its next instruction starts.
    let oracle: Vec<llvm::Oracle> = inputs
        .iter()
        .flat_map(|b| {
            llvm::disassemble(
                "llvm-mc-22".as_ref(),
                &target,
                None,
                std::slice::from_ref(b),
            )
        })
        .collect();
    let (mut both, mut mnemonic, mut text, mut llvm_rejects) = (0, 0, 0, 0);
    for (b, o) in inputs.iter().zip(&oracle) {
        let d = decoder.decode(b, 0).unwrap();
        match o {
            llvm::Oracle::Text { text: t, len } if *len == b.len() => {
                both += 1;
                if t.split_whitespace().next() == Some(format::mnemonic(&d).as_str()) {
                    mnemonic += 1;
                }
                if *t == format::text(&d) {
                    text += 1;
                } else if std::env::var_os("SHOW").is_some() {
                    println!("ours `{}` llvm `{t}` {b:02x?}", format::text(&d));
                }
            }
            llvm::Oracle::Text { text: t, len } => {
                both += 1;
                if std::env::var_os("SHOW").is_some() {
                    println!(
                        "LENGTH ours {} `{}` llvm {len} `{t}` {b:02x?}",
                        b.len(),
                        format::text(&d)
                    );
                }
            }
            _ => llvm_rejects += 1,
        }
    }
    println!(
        "{target}: {} random instructions; llvm-mc decodes {both} ({llvm_rejects} rejected); mnemonic agrees on {mnemonic} ({:.2}%), full text on {text} ({:.2}%)",
        inputs.len(),
        100.0 * mnemonic as f64 / both.max(1) as f64,
        100.0 * text as f64 / both.max(1) as f64
    );
}
