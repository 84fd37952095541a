//! Typed encoders against llvm-mc-22: the words the generated constructors and field setters
//! build are the words LLVM's assembler emits.

use std::path::Path;
use std::process::Command;

use amdgpu_isa_gen::oracle;

/// Assembles one line with llvm-mc and returns its encoding bytes.
fn llvm_bytes(llvm_mc: &Path, mcpu: &str, line: &str) -> Vec<u8> {
    let dir = std::env::temp_dir().join(format!("amdgpu-isa-enc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join(format!("{mcpu}.s"));
    std::fs::write(&src, format!("{line}\n")).unwrap();
    let out = Command::new(llvm_mc)
        .args(["-triple=amdgcn", &format!("-mcpu={mcpu}"), "-show-encoding"])
        .arg(&src)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "llvm-mc failed on `{line}`: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let enc = text
        .split("encoding: [")
        .nth(1)
        .unwrap_or_else(|| panic!("no encoding in {text}"));
    enc[..enc.find(']').unwrap()]
        .split(',')
        .map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).unwrap())
        .collect()
}

#[cfg(feature = "cdna3")]
#[test]
fn cdna3_sop1_and_vop2_encoders_match_llvm() {
    use amdgpu_isa::cdna3::encodings::{EncSop1, EncVop2};
    let Some(llvm_mc) = oracle::llvm_mc("cdna3_sop1_and_vop2_encoders_match_llvm") else {
        return;
    };
    let word = EncSop1::s_mov_b32().with_sdst(5).with_ssrc0(1).0;
    assert_eq!(
        word.to_le_bytes().to_vec(),
        llvm_bytes(&llvm_mc, "gfx942", "s_mov_b32 s5, s1")
    );
    // VGPR sources are 256 + index in the 9-bit SRC0 field.
    let word = EncVop2::v_add_f32()
        .with_vdst(1)
        .with_src0(256 + 2)
        .with_vsrc1(3)
        .0;
    assert_eq!(
        word.to_le_bytes().to_vec(),
        llvm_bytes(&llvm_mc, "gfx942", "v_add_f32_e32 v1, v2, v3")
    );
}

#[cfg(feature = "rdna3")]
#[test]
fn rdna3_smem_encoder_with_implied_bits_matches_llvm() {
    use amdgpu_isa::rdna3::encodings::EncSmem;
    let Some(llvm_mc) = oracle::llvm_mc("rdna3_smem_encoder_with_implied_bits_matches_llvm") else {
        return;
    };
    // SBASE has an implied low bit (AMD's Padding): the setter takes the SGPR number.
    let word = EncSmem::s_load_b32()
        .with_sdata(7)
        .with_sbase(4)
        .with_offset(16)
        .with_soffset(124)
        .0;
    assert_eq!(
        word.to_le_bytes().to_vec(),
        llvm_bytes(&llvm_mc, "gfx1100", "s_load_b32 s7, s[4:5], 0x10")
    );
}
