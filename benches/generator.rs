//! Read + validate + lower, and emission, for every AMD XML file in reach (AMDGPU_ISA_XML_DIR).
//! Throughput is reported in bytes of XML per second.

use std::path::Path;

use amdgpu_isa_gen::emit::{Prose, emit_generation};
use amdgpu_isa_gen::{GENERATIONS, Strictness, read_bytes, xml_dir};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn generator(c: &mut Criterion) {
    let dirs = xml_dir::search_dirs(Path::new(env!("CARGO_MANIFEST_DIR")));
    let files: Vec<_> = GENERATIONS
        .iter()
        .filter_map(|g| xml_dir::find_xml(&dirs, g).map(|p| (g, p)))
        .collect();
    if files.is_empty() {
        eprintln!(
            "no AMD XML in reach (set {}): nothing to measure",
            xml_dir::XML_DIR_VAR
        );
    }
    let mut group = c.benchmark_group("generator");
    group.sample_size(10);
    for (g, path) in files {
        let bytes = std::fs::read(&path).unwrap();
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function(format!("read+validate+lower/{}", g.module), |b| {
            b.iter(|| {
                let outcome = read_bytes(&bytes, &path, Strictness::Strict);
                assert!(!outcome.has_errors());
                outcome
            })
        });
        let (isa, _, _) = read_bytes(&bytes, &path, Strictness::Lenient)
            .into_result()
            .unwrap();
        group.bench_function(format!("emit/{}", g.module), |b| {
            b.iter(|| emit_generation(&isa, g, Prose::Include).unwrap())
        });
        group.bench_function(format!("read+validate+lower+emit/{}", g.module), |b| {
            b.iter(|| {
                let (isa, _, _) = read_bytes(&bytes, &path, Strictness::Lenient)
                    .into_result()
                    .unwrap();
                emit_generation(&isa, g, Prose::Include).unwrap()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, generator);
criterion_main!(benches);
