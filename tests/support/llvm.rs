//! Running llvm-mc-22 as the disassembly oracle over many instructions at once.
//!
//! llvm-mc reads its byte lists as one stream, so a word it rejects (a warning on stderr naming
//! line and column) or an instruction longer than ours shifts everything after it. The results
//! are put back in place by byte offset: every sample starts on its own line, warnings give the
//! offset of each rejected word, and each printed line carries its encoding bytes.

#![allow(dead_code)]

use std::path::Path;
use std::process::Command;

/// What llvm-mc made of the bytes starting at one sample's first byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Oracle {
    /// Printed text (without the leading tab and the encoding comment) and length in bytes.
    Text { text: String, len: usize },
    /// `warning: invalid instruction encoding`.
    Invalid,
    /// An earlier instruction of llvm-mc's ran over this sample's start.
    Overrun,
    /// llvm-mc crashed on this sample (found by bisecting a crashing batch).
    Crash,
}

/// Disassembles each sample with `llvm-mc-22 -disassemble -show-encoding` for `mcpu`. A batch
/// that crashes llvm-mc is split until the crashing samples are found.
pub fn disassemble(
    llvm_mc: &Path,
    mcpu: &str,
    mattr: Option<&str>,
    samples: &[Vec<u8>],
) -> Vec<Oracle> {
    if samples.is_empty() {
        return Vec::new();
    }
    match run_batch(llvm_mc, mcpu, mattr, samples) {
        Some(results) => results,
        None if samples.len() == 1 => vec![Oracle::Crash],
        None => {
            let (a, b) = samples.split_at(samples.len() / 2);
            let mut results = disassemble(llvm_mc, mcpu, mattr, a);
            results.extend(disassemble(llvm_mc, mcpu, mattr, b));
            results
        }
    }
}

/// One llvm-mc run; `None` when llvm-mc crashed.
fn run_batch(
    llvm_mc: &Path,
    mcpu: &str,
    mattr: Option<&str>,
    samples: &[Vec<u8>],
) -> Option<Vec<Oracle>> {
    let dir = std::env::temp_dir().join(format!("amdgpu-isa-oracle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join(format!("{mcpu}-{:?}.txt", std::thread::current().id()));
    let mut text = String::new();
    let mut line_offsets = vec![0usize]; // byte offset of each line's first byte (line 1 = index 1)
    let mut offset = 0;
    for s in samples {
        line_offsets.push(offset);
        for b in s {
            text.push_str(&format!("0x{b:02x},"));
        }
        text.push('\n');
        offset += s.len();
    }
    // Padding, so that an instruction llvm-mc thinks longer does not run off the end.
    line_offsets.push(offset);
    text.push_str(&"0x00,0x00,0x80,0xbf,".repeat(4));
    text.push('\n');
    std::fs::write(&input, &text).unwrap();

    let mut cmd = Command::new(llvm_mc);
    cmd.args([
        "-triple=amdgcn",
        &format!("-mcpu={mcpu}"),
        "-disassemble",
        "-show-encoding",
    ]);
    if let Some(m) = mattr {
        cmd.arg(format!("-mattr={m}"));
    }
    let out = cmd.arg(&input).output().expect("run llvm-mc-22");
    if !out.status.success() {
        return None;
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);

    let mut invalid: Vec<usize> = stderr
        .lines()
        .filter(|l| l.contains("warning: invalid instruction encoding"))
        .filter_map(|l| {
            let mut parts = l.split(": warning").next()?.rsplitn(3, ':');
            let col: usize = parts.next()?.parse().ok()?;
            let line: usize = parts.next()?.parse().ok()?;
            Some(line_offsets.get(line)? + (col - 1) / 5)
        })
        .collect();
    invalid.sort_unstable();
    let printed: Vec<(String, Vec<u8>)> = stdout
        .lines()
        .filter_map(|l| {
            let (text, enc) = l.split_once("; encoding: [")?;
            let bytes = enc
                .trim_end_matches(']')
                .split(',')
                .filter_map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).ok())
                .collect();
            Some((text.trim().to_string(), bytes))
        })
        .collect();
    let stream: Vec<u8> = samples.iter().flatten().copied().collect();

    // Replay the stream: at each offset llvm-mc either rejected a word or printed an instruction.
    // llvm-mc's encoding comment is not always the bytes it consumed (for an operand it calls an
    // `Invalid immediate` it drops the literal word), so a length is accepted only where the
    // next event fits after it.
    let fits =
        |pos: usize, next_printed: Option<&(String, Vec<u8>)>, next_invalid: Option<&usize>| {
            pos >= stream.len()
            || next_invalid == Some(&pos)
            // The first word only: llvm-mc re-encodes literals in its comment (16-bit ones truncated).
            || next_printed.is_some_and(|(_, b)| {
                let n = b.len().min(4);
                stream.get(pos..pos + n) == Some(&b[..n])
            })
        };
    let mut at_offset = std::collections::HashMap::new();
    let (mut pos, mut inv, mut pr) = (0usize, 0usize, 0usize);
    while pos < offset {
        if inv < invalid.len() && invalid[inv] == pos {
            at_offset.insert(pos, Oracle::Invalid);
            inv += 1;
            pos += 4;
        } else if pr < printed.len() {
            let (t, b) = &printed[pr];
            let len = [b.len(), b.len() + 4, 4, 8, 12, 16]
                .into_iter()
                .find(|&l| fits(pos + l, printed.get(pr + 1), invalid.get(inv)))
                .unwrap_or(b.len());
            at_offset.insert(
                pos,
                Oracle::Text {
                    text: t.clone(),
                    len,
                },
            );
            pr += 1;
            pos += len;
        } else {
            break;
        }
    }
    let mut results = Vec::with_capacity(samples.len());
    for (i, _) in samples.iter().enumerate() {
        results.push(
            at_offset
                .get(&line_offsets[i + 1])
                .cloned()
                .unwrap_or(Oracle::Overrun),
        );
    }
    Some(results)
}
