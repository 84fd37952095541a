//! Disassembly speed against llvm-objdump-22, in one run: an ELF code object of more than 1 MB
//! (every instruction sample llvm-mc accepts, repeated) is disassembled by amdgpu-isa (decode
//! only, and full text) and by `llvm-objdump-22 -d`. `cargo bench --bench disasm`.

use std::io::Write as _;
use std::process::{Command, Stdio};
use std::time::Instant;

use amdgpu_isa::decode::Decoder;
use amdgpu_isa::samples::samples;
use amdgpu_isa::{Generation, disasm};

fn main() {
    let target = std::env::var("AMDGPU_ISA_BENCH_TARGET").unwrap_or_else(|_| "gfx942".into());
    let g = Generation::from_name(&target).expect("a known target");
    let Some(decoder) = Decoder::new(g) else {
        eprintln!("{g} is not built in");
        return;
    };
    // Code: samples that decode, repeated past 1 MiB.
    let mut unit = Vec::new();
    for s in samples(decoder.isa(), 0) {
        if decoder.decode(&s.bytes(), 0).is_ok() {
            unit.extend(s.bytes());
        }
    }
    let mut code = Vec::new();
    while code.len() < (1 << 20) + (1 << 18) {
        code.extend_from_slice(&unit);
    }
    let dir = std::env::temp_dir().join(format!("amdgpu-isa-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("code.s");
    let mut s = String::from(".text\n");
    for chunk in code.chunks(4) {
        s += &format!(
            ".long 0x{:08x}\n",
            u32::from_le_bytes(chunk.try_into().unwrap())
        );
    }
    std::fs::write(&src, s).unwrap();
    let obj = dir.join("code.o");
    let status = Command::new("llvm-mc-22")
        .args([
            "-triple=amdgcn",
            &format!("-mcpu={target}"),
            "-filetype=obj",
            "-o",
        ])
        .arg(&obj)
        .arg(&src)
        .status();
    if !status.is_ok_and(|s| s.success()) {
        eprintln!("llvm-mc-22 is needed to build the code object");
        return;
    }
    let elf = std::fs::read(&obj).unwrap();
    let text = disasm::elf_code(&elf).unwrap();
    println!(
        "{target}: code object {} bytes, .text {} bytes",
        elf.len(),
        text.len()
    );

    let runs = 5;
    let t = Instant::now();
    let mut count = 0usize;
    for _ in 0..runs {
        count = decoder
            .decode_all(std::hint::black_box(&text))
            .filter(|r| r.is_ok())
            .count();
    }
    let decode = t.elapsed().as_secs_f64() / runs as f64;
    println!(
        "amdgpu-isa decode only: {count} instructions in {:.4} s = {:.1} M instructions/s",
        decode,
        count as f64 / decode / 1e6
    );

    let t = Instant::now();
    let mut out = String::new();
    for _ in 0..runs {
        out.clear();
        let mut warnings = Vec::new();
        let code = disasm::elf_code(&elf).unwrap();
        disasm::disassemble(&decoder, &code, None, false, &mut out, &mut warnings);
    }
    let full = t.elapsed().as_secs_f64() / runs as f64;
    println!(
        "amdgpu-isa text: {:.4} s = {:.2} M instructions/s ({} bytes of text)",
        full,
        count as f64 / full / 1e6,
        out.len()
    );

    let t = Instant::now();
    let objdump = Command::new("llvm-objdump-22")
        .args(["-d", &format!("--mcpu={target}")])
        .arg(&obj)
        .stdout(Stdio::piped())
        .output();
    let llvm = t.elapsed().as_secs_f64();
    match objdump {
        Ok(o) if o.status.success() => {
            let lines = o
                .stdout
                .split(|&b| b == b'\n')
                .filter(|l| l.starts_with(b"\t"))
                .count();
            println!(
                "llvm-objdump-22 -d: {lines} instruction lines in {llvm:.4} s = {:.2} M instructions/s",
                lines as f64 / llvm / 1e6
            );
            println!(
                "ratio: amdgpu-isa text is {:.1}x faster than llvm-objdump-22; decode only {:.1}x",
                llvm / full,
                llvm / decode
            );
        }
        _ => println!("llvm-objdump-22 not available"),
    }
    let _ = std::io::stdout().flush();
}
