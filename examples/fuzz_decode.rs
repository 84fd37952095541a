//! A time-bounded fuzzer for the decoder (cargo fuzz needs a nightly toolchain, which this
//! project's machines lack): random bytes and bit-flipped samples for every generation built
//! in, each decoded in a `catch_unwind`. `cargo run --release --example fuzz_decode -- SECONDS`.

use std::time::{Duration, Instant};

use amdgpu_isa::Generation;
use amdgpu_isa::decode::Decoder;
use amdgpu_isa::samples::samples;

fn main() {
    let seconds: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let decoders: Vec<Decoder> = Generation::ALL
        .iter()
        .filter_map(|g| Decoder::new(*g))
        .collect();
    let corpus: Vec<Vec<u8>> = decoders
        .iter()
        .map(|d| {
            (0..3)
                .flat_map(|f| samples(d.isa(), f))
                .flat_map(|s| s.bytes())
                .collect()
        })
        .collect();
    let mut state = 0x2545_f491_4f6c_dd1du64 ^ u64::from(std::process::id());
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let (mut inputs, mut instructions, mut errors) = (0u64, 0u64, 0u64);
    while Instant::now() < deadline {
        for (decoder, base) in decoders.iter().zip(&corpus) {
            for _ in 0..1000 {
                let len = 1 + (next() % 64) as usize;
                let input: Vec<u8> = if next() % 2 == 0 {
                    (0..len).map(|_| next() as u8).collect()
                } else {
                    let start = (next() as usize) % (base.len() - len);
                    let mut v = base[start..start + len].to_vec();
                    let i = (next() as usize) % v.len();
                    v[i] ^= 1 << (next() % 8);
                    v
                };
                let result = std::panic::catch_unwind(|| {
                    decoder
                        .decode_all(&input)
                        .fold((0u64, 0u64), |(ok, err), r| match r {
                            Ok(d) => {
                                let _ = amdgpu_isa::format::text(&d);
                                (ok + 1, err)
                            }
                            Err(e) => {
                                let _ = e.to_string();
                                (ok, err + 1)
                            }
                        })
                });
                match result {
                    Ok((ok, err)) => {
                        instructions += ok;
                        errors += err;
                    }
                    Err(_) => {
                        eprintln!(
                            "PANIC on {:?} input {:02x?}",
                            decoder.isa().generation,
                            input
                        );
                        std::process::exit(1);
                    }
                }
                inputs += 1;
            }
        }
    }
    println!(
        "{inputs} inputs, {instructions} instructions decoded, {errors} errors reported, 0 panics in {seconds} s"
    );
}
