//! Findings about an XML file: where they are and how bad they are.

use std::fmt;
use std::path::{Path, PathBuf};

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// The data is inconsistent but can still be used as AMD wrote it (AMD's known quirks).
    Warning,
    /// The file cannot be used: malformed XML, broken references, impossible bit layouts.
    Error,
}

/// A line and column in a file, both counted from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Position {
    pub line: u32,
    pub column: u32,
}

/// One finding: file, position, the element it concerns and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub file: PathBuf,
    pub position: Option<Position>,
    /// The element, as a short path with names (`Encoding ENC_FLAT / EncodingCondition default`).
    pub element: String,
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(p) = self.position {
            write!(f, ":{}:{}", p.line, p.column)?;
        }
        let kind = match self.severity {
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        if self.element.is_empty() {
            write!(f, ": {kind}: {}", self.message)
        } else {
            write!(f, ": {kind}: <{}>: {}", self.element, self.message)
        }
    }
}

impl std::error::Error for Diagnostic {}

/// Collects findings for one file.
#[derive(Debug, Default)]
pub struct Findings {
    file: PathBuf,
    pub list: Vec<Diagnostic>,
}

impl Findings {
    pub fn new(file: &Path) -> Self {
        Findings {
            file: file.to_path_buf(),
            list: Vec::new(),
        }
    }

    pub fn push(
        &mut self,
        severity: Severity,
        position: Option<Position>,
        element: impl Into<String>,
        message: impl Into<String>,
    ) {
        self.list.push(Diagnostic {
            severity,
            file: self.file.clone(),
            position,
            element: element.into(),
            message: message.into(),
        });
    }

    pub fn error(
        &mut self,
        pos: Option<Position>,
        element: impl Into<String>,
        message: impl Into<String>,
    ) {
        self.push(Severity::Error, pos, element, message);
    }

    pub fn warning(
        &mut self,
        pos: Option<Position>,
        element: impl Into<String>,
        message: impl Into<String>,
    ) {
        self.push(Severity::Warning, pos, element, message);
    }

    pub fn has_errors(&self) -> bool {
        self.list.iter().any(|d| d.severity == Severity::Error)
    }

    pub fn first_error(&self) -> Option<&Diagnostic> {
        self.list.iter().find(|d| d.severity == Severity::Error)
    }
}

/// Maps byte offsets to line and column.
pub struct LineIndex {
    line_starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &[u8]) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(
            text.iter()
                .enumerate()
                .filter(|(_, b)| **b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { line_starts }
    }

    pub fn position(&self, offset: usize) -> Position {
        let line = self.line_starts.partition_point(|&s| s <= offset);
        let start = self.line_starts[line.saturating_sub(1)];
        Position {
            line: line as u32,
            column: (offset - start + 1) as u32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_index_counts_from_one() {
        let idx = LineIndex::new(b"ab\ncd\n\nx");
        assert_eq!(idx.position(0), Position { line: 1, column: 1 });
        assert_eq!(idx.position(1), Position { line: 1, column: 2 });
        assert_eq!(idx.position(3), Position { line: 2, column: 1 });
        assert_eq!(idx.position(6), Position { line: 3, column: 1 });
        assert_eq!(idx.position(7), Position { line: 4, column: 1 });
    }
}
