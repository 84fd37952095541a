//! Where AMD's XML files are looked for: `AMDGPU_ISA_XML_DIR`, else the repository's `xml/`.

use std::path::{Path, PathBuf};

use crate::generations::GenerationInfo;

/// The environment variable naming the directory that holds AMD's XML files.
pub const XML_DIR_VAR: &str = "AMDGPU_ISA_XML_DIR";

/// Directories to search, in order: `$AMDGPU_ISA_XML_DIR`, then `<repo>/xml` (and the extracted archive in it).
pub fn search_dirs(repo_root: &Path) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(dir) = std::env::var_os(XML_DIR_VAR) {
        if !dir.is_empty() {
            dirs.push(PathBuf::from(dir));
        }
    }
    dirs.push(repo_root.join("xml"));
    dirs.push(repo_root.join("xml").join("extracted"));
    dirs
}

/// The first existing file for `generation` in `dirs`.
pub fn find_xml(dirs: &[PathBuf], generation: &GenerationInfo) -> Option<PathBuf> {
    dirs.iter()
        .map(|d| d.join(generation.file))
        .find(|p| p.is_file())
}
