//! Resolving the names users type to a [`Generation`].

use core::fmt;
use core::str::FromStr;

use crate::Generation;

/// Characters ignored when comparing generation names, and case folded.
fn normalised(s: &str) -> impl Iterator<Item = char> + '_ {
    s.chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_' | '.'))
        .map(|c| c.to_ascii_lowercase())
}

fn same_name(a: &str, b: &str) -> bool {
    normalised(a).eq(normalised(b))
}

impl Generation {
    /// Resolves `cdna3`, `CDNA 3`, `AMD CDNA 3`, `gfx942`, `rdna3.5`, … to a generation.
    pub fn from_name(name: &str) -> Option<Generation> {
        let name = name.trim();
        let name = if name.len() > 3 && name[..3].eq_ignore_ascii_case("amd") {
            &name[3..]
        } else {
            name
        };
        Generation::ALL.into_iter().find(|g| {
            same_name(g.module_name(), name)
                || same_name(g.display_name(), name)
                || g.llvm_targets()
                    .iter()
                    .any(|t| t.eq_ignore_ascii_case(name.trim()))
        })
    }
}

/// A name that is no generation; its `Display` lists the valid names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownGeneration;

impl fmt::Display for UnknownGeneration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown generation or target; valid names are")?;
        for (i, g) in Generation::ALL.iter().enumerate() {
            let sep = if i == 0 { " " } else { "; " };
            write!(f, "{sep}{} / {}", g.module_name(), g.display_name())?;
            for t in g.llvm_targets() {
                write!(f, " / {t}")?;
            }
        }
        Ok(())
    }
}

#[cfg(feature = "std")]
impl std::error::Error for UnknownGeneration {}

impl FromStr for Generation {
    type Err = UnknownGeneration;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Generation::from_name(s).ok_or(UnknownGeneration)
    }
}

impl fmt::Display for Generation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.display_name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve() {
        assert_eq!(Generation::from_name("cdna3"), Some(Generation::Cdna3));
        assert_eq!(Generation::from_name("CDNA 3"), Some(Generation::Cdna3));
        assert_eq!(Generation::from_name("AMD CDNA 3"), Some(Generation::Cdna3));
        assert_eq!(Generation::from_name("gfx942"), Some(Generation::Cdna3));
        assert_eq!(Generation::from_name("GFX1100"), Some(Generation::Rdna3));
        assert_eq!(Generation::from_name("rdna3.5"), Some(Generation::Rdna3_5));
        assert_eq!(Generation::from_name("gfx90a"), Some(Generation::Cdna2));
        assert_eq!(Generation::from_name("rdna"), None);
        assert_eq!(Generation::from_name("gfx9"), None);
        assert!(
            "nope"
                .parse::<Generation>()
                .unwrap_err()
                .to_string()
                .contains("gfx942")
        );
    }
}
