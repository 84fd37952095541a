//! Exploration aid: decodes every sample of a generation with amdgpu-isa and llvm-mc-22 and
//! prints where the mnemonics differ. `cargo run --example compare -- gfx942 [flavour]`.

#[path = "../tests/support/llvm.rs"]
mod llvm;

use amdgpu_isa::Generation;
use amdgpu_isa::decode::Decoder;
use amdgpu_isa::format;
use amdgpu_isa::samples::samples;

fn main() {
    let target = std::env::args().nth(1).unwrap_or_else(|| "gfx942".into());
    let flavour: u32 = std::env::args()
        .nth(2)
        .map(|f| f.parse().unwrap())
        .unwrap_or(0);
    let full = std::env::args().any(|a| a == "--text");
    let g = Generation::from_name(&target).expect("target");
    let isa = g.isa().expect("built");
    let decoder = Decoder::new(g).unwrap();
    let samples = samples(isa, flavour);
    let bytes: Vec<Vec<u8>> = samples.iter().map(|s| s.bytes()).collect();
    let oracle = llvm::disassemble("llvm-mc-22".as_ref(), &target, None, &bytes);
    let (mut same, mut differ, mut invalid) = (0, 0, 0);
    for (s, o) in samples.iter().zip(&oracle) {
        let ours = decoder.decode(&s.bytes(), 0);
        let ours_text = match &ours {
            Ok(d) => {
                if full {
                    format::text(d)
                } else {
                    format::mnemonic(d)
                }
            }
            Err(e) => format!("<{e}>"),
        };
        match o {
            llvm::Oracle::Text { text, len } => {
                let theirs = if full {
                    text.clone()
                } else {
                    text.split_whitespace().next().unwrap_or("").to_string()
                };
                let len_ok = ours
                    .as_ref()
                    .map(|d| usize::from(d.len) == *len)
                    .unwrap_or(false);
                if theirs == ours_text && len_ok {
                    same += 1;
                } else {
                    differ += 1;
                    let enc = isa.encodings[s.encoding as usize].name;
                    println!(
                        "DIFF {enc:24} {:40} ours `{ours_text}` llvm `{text}` ({len} bytes) {:02x?}",
                        isa.instructions[s.instruction as usize].name,
                        s.bytes()
                    );
                }
            }
            other => {
                invalid += 1;
                let enc = isa.encodings[s.encoding as usize].name;
                println!(
                    "LLVM {other:?} {enc:24} {:40} ours `{ours_text}`",
                    isa.instructions[s.instruction as usize].name
                );
            }
        }
    }
    println!(
        "{target}: {same} agree, {differ} differ, {invalid} not decoded by llvm-mc, of {}",
        samples.len()
    );
}
