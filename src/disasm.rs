//! The disassembler front end: llvm-mc's byte-list input, raw code and ELF code objects in, one
//! line of LLVM-syntax text per instruction out (what `llvm-mc -disassemble` prints).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write as _;

use crate::decode::{DecodeError, Decoder};
use crate::format;

/// A byte of input with the line and column it was written at (1-based; 0 for binary input).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SourceByte {
    pub byte: u8,
    pub line: u32,
    pub column: u32,
}

/// A byte list that is not in llvm-mc's input syntax.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub line: u32,
    pub column: u32,
    pub message: String,
}

impl core::fmt::Display for ParseError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}:{}: error: {}", self.line, self.column, self.message)
    }
}

/// Parses llvm-mc's disassembler input: `0x..` bytes separated by commas or white space,
/// optionally in `[...]`, `#` to the end of the line a comment. All lines form one stream.
pub fn parse_byte_list(text: &str) -> Result<Vec<SourceByte>, ParseError> {
    let mut out = Vec::new();
    for (l, line) in text.lines().enumerate() {
        let line_no = l as u32 + 1;
        let code = line.split('#').next().unwrap_or("");
        let mut chars = code.char_indices().peekable();
        while let Some(&(i, c)) = chars.peek() {
            if c.is_whitespace() || c == ',' || c == '[' || c == ']' {
                chars.next();
                continue;
            }
            let start = i;
            let mut end = code.len();
            while let Some(&(j, c)) = chars.peek() {
                if c.is_whitespace() || c == ',' || c == '[' || c == ']' {
                    end = j;
                    break;
                }
                chars.next();
            }
            let token = &code[start..end];
            let err = |message: String| ParseError {
                line: line_no,
                column: start as u32 + 1,
                message,
            };
            let value = if let Some(hex) = token
                .strip_prefix("0x")
                .or_else(|| token.strip_prefix("0X"))
            {
                u8::from_str_radix(hex, 16)
                    .map_err(|_| err(format!("invalid input token `{token}`")))?
            } else {
                token
                    .parse::<u8>()
                    .map_err(|_| err(format!("invalid input token `{token}`")))?
            };
            out.push(SourceByte {
                byte: value,
                line: line_no,
                column: start as u32 + 1,
            });
        }
    }
    Ok(out)
}

/// The bytes of every executable section of a little-endian ELF64 file (an AMDGPU code object).
pub fn elf_code(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let u16_at = |o: usize| {
        bytes
            .get(o..o + 2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
    };
    let u64_at = |o: usize| {
        bytes
            .get(o..o + 8)
            .map(|b| u64::from_le_bytes(b.try_into().unwrap_or([0; 8])))
    };
    if bytes.get(..4) != Some(b"\x7fELF".as_slice()) {
        return Err(String::from("not an ELF file"));
    }
    if bytes.get(4) != Some(&2) || bytes.get(5) != Some(&1) {
        return Err(String::from("not a little-endian 64-bit ELF file"));
    }
    let bad = || String::from("truncated or corrupt ELF section headers");
    let shoff = u64_at(0x28).ok_or_else(bad)? as usize;
    let shentsize = usize::from(u16_at(0x3a).ok_or_else(bad)?);
    let shnum = usize::from(u16_at(0x3c).ok_or_else(bad)?);
    let mut code = Vec::new();
    for i in 0..shnum {
        let h = shoff
            .checked_add(i.checked_mul(shentsize).ok_or_else(bad)?)
            .ok_or_else(bad)?;
        let flags = u64_at(h + 8).ok_or_else(bad)?;
        let offset = u64_at(h + 24).ok_or_else(bad)? as usize;
        let size = u64_at(h + 32).ok_or_else(bad)? as usize;
        let sh_type = bytes.get(h + 4..h + 8).ok_or_else(bad)?;
        const SHF_EXECINSTR: u64 = 4;
        const SHT_NOBITS: [u8; 4] = [8, 0, 0, 0];
        if flags & SHF_EXECINSTR != 0 && sh_type != SHT_NOBITS {
            let end = offset.checked_add(size).ok_or_else(bad)?;
            code.extend_from_slice(bytes.get(offset..end).ok_or_else(bad)?);
        }
    }
    if code.is_empty() {
        return Err(String::from("no executable section"));
    }
    Ok(code)
}

/// Disassembles `bytes`: one line per instruction into `out` (a tab, the text, and with
/// `show_encoding` the bytes padded to column 40 as llvm-mc does), one warning per
/// undecodable word into `warnings` (`line:column: warning: …`, from `positions` when given).
pub fn disassemble(
    decoder: &Decoder,
    bytes: &[u8],
    positions: Option<&[SourceByte]>,
    show_encoding: bool,
    out: &mut String,
    warnings: &mut Vec<String>,
) -> (usize, usize) {
    let (mut decoded, mut failed) = (0, 0);
    let mut offset = 0;
    for r in decoder.decode_all(bytes) {
        match r {
            Ok(d) => {
                let text = format::text(&d);
                out.push('\t');
                out.push_str(&text);
                if show_encoding {
                    for _ in text.len()..40 {
                        out.push(' ');
                    }
                    if text.len() >= 40 {
                        out.push(' ');
                    }
                    out.push_str("; encoding: [");
                    for (i, b) in d.bytes().enumerate() {
                        let _ = write!(out, "{}0x{b:02x}", if i == 0 { "" } else { "," });
                    }
                    out.push(']');
                }
                out.push('\n');
                offset += usize::from(d.len);
                decoded += 1;
            }
            Err(e) => {
                let at = match e {
                    DecodeError::PartialWord { available, .. } => {
                        let w = at_position(
                            positions,
                            offset,
                            "warning: trailing bytes do not form a whole instruction word",
                        );
                        offset += available;
                        w
                    }
                    _ => {
                        let w = at_position(
                            positions,
                            offset,
                            &format!("warning: invalid instruction encoding ({e})"),
                        );
                        offset += 4;
                        w
                    }
                };
                warnings.push(at);
                failed += 1;
            }
        }
    }
    (decoded, failed)
}

fn at_position(positions: Option<&[SourceByte]>, offset: usize, message: &str) -> String {
    match positions.and_then(|p| p.get(offset)) {
        Some(p) => format!("{}:{}: {message}", p.line, p.column),
        None => format!("offset {offset:#x}: {message}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_lists_parse_like_llvm_mc() {
        let b = parse_byte_list("0x01,0x00 0x85 [0xbe] # comment 0x99\n  0x02,\n").unwrap();
        assert_eq!(
            b.iter().map(|s| s.byte).collect::<Vec<_>>(),
            [1, 0, 0x85, 0xbe, 2]
        );
        assert_eq!((b[2].line, b[2].column), (1, 11));
        assert_eq!((b[4].line, b[4].column), (2, 3));
        let e = parse_byte_list("0x01\n0x02 // no").unwrap_err();
        assert_eq!((e.line, e.column), (2, 6));
        assert!(parse_byte_list("0x1ff").is_err());
        assert!(parse_byte_list("0x01 ; x").is_err());
    }

    #[test]
    fn elf_errors_do_not_panic() {
        assert!(elf_code(b"").is_err());
        assert!(elf_code(b"\x7fELF\x02\x01").is_err());
        let mut header = alloc::vec![0u8; 64];
        header[..6].copy_from_slice(b"\x7fELF\x02\x01");
        header[0x28] = 0xff;
        header[0x3c] = 3;
        assert!(elf_code(&header).is_err());
    }
}
