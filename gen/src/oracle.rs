//! Finding the test oracles: AMD's XML files and `llvm-mc-22`.
//!
//! Tests that need them call these helpers. Without them a test is skipped with a message on
//! stderr; with `AMDGPU_ISA_REQUIRE_ORACLE=1` (set by `.ci/run`) a missing oracle fails the test,
//! so a green CI run cannot hide skipped differential tests.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::generations::{GENERATIONS, GenerationInfo};
use crate::xml_dir;

/// The variable that turns a missing oracle from a skip into a failure.
pub const REQUIRE_VAR: &str = "AMDGPU_ISA_REQUIRE_ORACLE";

/// Whether missing oracles must fail (`AMDGPU_ISA_REQUIRE_ORACLE` set to anything but `0` or empty).
pub fn required() -> bool {
    std::env::var(REQUIRE_VAR)
        .map(|v| !v.is_empty() && v != "0")
        .unwrap_or(false)
}

/// Skips (returns `None` after saying so) or, when oracles are required, panics.
pub fn missing<T>(test: &str, what: &str) -> Option<T> {
    if required() {
        panic!("{test}: {what}, and {REQUIRE_VAR} is set: this test may not be skipped");
    }
    // Written to stderr directly, not with eprintln!, so the test harness does not capture it.
    let _ = writeln!(
        std::io::stderr().lock(),
        "SKIPPED {test}: {what} (set {REQUIRE_VAR}=1 to make this a failure)"
    );
    None
}

/// Every AMD XML file in reach, with its generation. With none in reach: skip or fail.
pub fn xml_files(test: &str, repo_root: &Path) -> Vec<(&'static GenerationInfo, PathBuf)> {
    let dirs = xml_dir::search_dirs(repo_root);
    let found: Vec<_> = GENERATIONS
        .iter()
        .filter_map(|g| xml_dir::find_xml(&dirs, g).map(|p| (g, p)))
        .collect();
    if found.is_empty() {
        let _: Option<()> = missing(
            test,
            &format!("no AMD XML file found (set {})", xml_dir::XML_DIR_VAR),
        );
    }
    found
}

/// The XML file of the generation `module` (`cdna3`). Missing: skip or fail.
pub fn xml_file(test: &str, repo_root: &Path, module: &str) -> Option<PathBuf> {
    let g = GENERATIONS
        .iter()
        .find(|g| g.module == module)
        .expect("a known generation");
    match xml_dir::find_xml(&xml_dir::search_dirs(repo_root), g) {
        Some(p) => Some(p),
        None => missing(
            test,
            &format!("{} not found (set {})", g.file, xml_dir::XML_DIR_VAR),
        ),
    }
}

/// `llvm-mc-22` on the PATH. Missing: skip or fail.
pub fn llvm_mc(test: &str) -> Option<PathBuf> {
    find_on_path("llvm-mc-22").or_else(|| {
        missing(
            test,
            "llvm-mc-22 is not installed (apt-get install llvm-22)",
        )
    })
}

fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// A small deterministic random generator for tests, so a failure reproduces from its seed.
#[derive(Debug, Clone)]
pub struct XorShift(pub u64);

impl XorShift {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A value below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}
