//! Where LLVM names an instruction differently from AMD. AMD's name stays canonical in this
//! crate; this table gives LLVM's spelling for text in LLVM syntax.
//!
//! Each entry was found by the differential test (`tests/llvm_decode.rs`): llvm-mc-22 printed
//! this mnemonic for the encoding the XML gives the AMD instruction. The "AMD alias" column says
//! whether AMD's `AliasedInstructionNames` lists the same name.

use crate::Generation;

/// `(generation, AMD name, LLVM name, listed in AMD's AliasedInstructionNames)`.
pub const LLVM_NAMES: &[(Generation, &str, &str, bool)] = &[
    (
        Generation::Cdna3,
        "V_ACCVGPR_READ",
        "v_accvgpr_read_b32",
        true,
    ),
    (
        Generation::Cdna3,
        "V_ACCVGPR_WRITE",
        "v_accvgpr_write_b32",
        true,
    ),
    (Generation::Cdna3, "V_MAD_MIX_F32", "v_fma_mix_f32", false),
    (
        Generation::Cdna3,
        "V_MAD_MIXHI_F16",
        "v_fma_mixhi_f16",
        false,
    ),
    (
        Generation::Cdna3,
        "V_MAD_MIXLO_F16",
        "v_fma_mixlo_f16",
        false,
    ),
    (
        Generation::Cdna4,
        "V_ACCVGPR_READ",
        "v_accvgpr_read_b32",
        true,
    ),
    (
        Generation::Cdna4,
        "V_ACCVGPR_WRITE",
        "v_accvgpr_write_b32",
        true,
    ),
    (Generation::Cdna4, "V_MAD_MIX_F32", "v_fma_mix_f32", false),
    (
        Generation::Cdna4,
        "V_MAD_MIXHI_F16",
        "v_fma_mixhi_f16",
        false,
    ),
    (
        Generation::Cdna4,
        "V_MAD_MIXLO_F16",
        "v_fma_mixlo_f16",
        false,
    ),
];

/// LLVM's name for AMD's instruction `amd_name` in `generation`, where it differs.
pub fn lookup(generation: Generation, amd_name: &str) -> Option<&'static str> {
    LLVM_NAMES
        .iter()
        .find(|(g, a, _, _)| *g == generation && *a == amd_name)
        .map(|(_, _, l, _)| *l)
}
