//! The generations AMD publishes XML for, and the names users may type for them.
//!
//! This is the one hand-written list in the project: which file holds which generation and which
//! LLVM targets (`llvm-mc -mcpu`) implement it. Everything else comes from the XML.

/// One AMD GPU generation with a machine-readable ISA file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenerationInfo {
    /// Rust module and cargo feature name (`cdna3`).
    pub module: &'static str,
    /// Rust type-style name used for the `Generation` enum variant (`Cdna3`).
    pub variant: &'static str,
    /// Human name as AMD writes it (`CDNA 3`).
    pub display: &'static str,
    /// AMD's file name inside the official archive.
    pub file: &'static str,
    /// The `ArchitectureName` the file is expected to declare.
    pub architecture_name: &'static str,
    /// LLVM targets implementing this generation; the first is the one tests use.
    pub llvm_targets: &'static [&'static str],
    /// The wavefront size LLVM's targets default to (RDNA: 32, CDNA: 64); it decides how lane
    /// masks print (`vcc_lo` or `vcc`).
    pub default_wave_size: u32,
    /// Whether LLVM (22) writes 16-bit VGPR operands as register halves (`v2.l`, `v2.h`): RDNA 3
    /// and later.
    pub llvm_true16: bool,
}

macro_rules! generation {
    ($module:literal, $variant:literal, $display:literal, $wave:literal, $t16:literal, [$($t:literal),*]) => {
        GenerationInfo {
            module: $module,
            variant: $variant,
            display: $display,
            file: concat!("amdgpu_isa_", $module, ".xml"),
            architecture_name: concat!("AMD ", $display),
            llvm_targets: &[$($t),*],
            default_wave_size: $wave,
            llvm_true16: $t16,
        }
    };
}

/// Every generation, in AMD's product order.
pub const GENERATIONS: &[GenerationInfo] = &[
    generation!(
        "rdna1",
        "Rdna1",
        "RDNA 1",
        32,
        false,
        ["gfx1010", "gfx1011", "gfx1012", "gfx1013"]
    ),
    generation!(
        "rdna2",
        "Rdna2",
        "RDNA 2",
        32,
        false,
        [
            "gfx1030", "gfx1031", "gfx1032", "gfx1033", "gfx1034", "gfx1035", "gfx1036"
        ]
    ),
    generation!(
        "rdna3",
        "Rdna3",
        "RDNA 3",
        32,
        true,
        ["gfx1100", "gfx1101", "gfx1102", "gfx1103"]
    ),
    generation!(
        "rdna3_5",
        "Rdna3_5",
        "RDNA 3.5",
        32,
        true,
        ["gfx1150", "gfx1151", "gfx1152", "gfx1153"]
    ),
    generation!("rdna4", "Rdna4", "RDNA 4", 32, true, ["gfx1200", "gfx1201"]),
    generation!("cdna1", "Cdna1", "CDNA 1", 64, false, ["gfx908"]),
    generation!("cdna2", "Cdna2", "CDNA 2", 64, false, ["gfx90a"]),
    generation!(
        "cdna3",
        "Cdna3",
        "CDNA 3",
        64,
        false,
        ["gfx942", "gfx940", "gfx941"]
    ),
    generation!("cdna4", "Cdna4", "CDNA 4", 64, false, ["gfx950"]),
    generation!("cdna5", "Cdna5", "CDNA 5", 64, true, ["gfx1250", "gfx1251"]),
];

/// Normalises a user-typed name: case-folded, with spaces, dashes, dots and underscores removed.
fn normalise(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_' | '.'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Resolves `cdna3`, `CDNA 3`, `AMD CDNA 3`, `gfx942`, `rdna3.5` … to a generation.
pub fn find_generation(name: &str) -> Option<&'static GenerationInfo> {
    let wanted = normalise(name);
    let wanted = wanted.strip_prefix("amd").unwrap_or(&wanted);
    GENERATIONS.iter().find(|g| {
        normalise(g.module) == wanted
            || normalise(g.display) == wanted
            || g.llvm_targets.contains(&wanted)
    })
}

/// The list of valid names, for error messages.
pub fn valid_names() -> String {
    GENERATIONS
        .iter()
        .map(|g| format!("{} ({})", g.module, g.llvm_targets.join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The generation whose file name is `file_name` (just the name, no directory).
pub fn generation_for_file(file_name: &str) -> Option<&'static GenerationInfo> {
    GENERATIONS.iter().find(|g| g.file == file_name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve() {
        assert_eq!(find_generation("cdna3").unwrap().module, "cdna3");
        assert_eq!(find_generation("CDNA 3").unwrap().module, "cdna3");
        assert_eq!(find_generation("gfx942").unwrap().module, "cdna3");
        assert_eq!(find_generation("rdna3.5").unwrap().module, "rdna3_5");
        assert_eq!(find_generation("RDNA 3.5").unwrap().module, "rdna3_5");
        assert_eq!(find_generation("gfx1100").unwrap().module, "rdna3");
        assert!(find_generation("gfx9999").is_none());
        assert!(find_generation("rdna").is_none());
    }
}
