//! `generated/` is what the generator makes from the XML in reach: fails when it is stale.
//! Rewrite it with `cargo run -p amdgpu-isa-cli -- regen`.

use std::path::Path;

use amdgpu_isa_gen::emit::{Prose, emit_generation};
use amdgpu_isa_gen::{Strictness, oracle, read_file};

#[test]
fn generated_files_are_fresh() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (g, xml) in oracle::xml_files("generated_files_are_fresh", root) {
        let (isa, _, _) = read_file(&xml, Strictness::Lenient)
            .into_result()
            .unwrap_or_else(|e| panic!("{e}"));
        let fresh = emit_generation(&isa, g, Prose::Omit).unwrap();
        let path = root.join("generated").join(format!("{}.rs", g.module));
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == fresh,
            "{} is stale or missing for {}: run `cargo run -p amdgpu-isa-cli -- regen`",
            path.display(),
            xml.display()
        );
    }
}
