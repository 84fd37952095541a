//! Prints the findings of a strict read of each file given: `cargo run -p amdgpu-isa-gen --example findings -- FILE...`.
fn main() {
    for f in std::env::args().skip(1) {
        let t = std::time::Instant::now();
        let outcome = amdgpu_isa_gen::read_file(f.as_ref(), amdgpu_isa_gen::Strictness::Strict);
        for d in &outcome.findings {
            println!("{d}");
        }
        eprintln!("{f}: {:?}", t.elapsed());
    }
}
