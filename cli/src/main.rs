//! `amdgpu-isa`: the command-line front end (stats, info, validate, regen).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use amdgpu_isa::Generation;
use amdgpu_isa_gen::emit::{self, Prose};
use amdgpu_isa_gen::{Severity, Strictness};
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "amdgpu-isa",
    version,
    about = "AMD GPU ISA tables generated from AMD's machine-readable XML"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Per generation: numbers of instructions, encodings, operand types and data formats.
    Stats {
        /// A generation or LLVM target (`cdna3`, `CDNA 3`, `gfx942`); all built generations when absent.
        #[arg(long)]
        target: Option<String>,
    },
    /// One instruction across every generation built: flags, encodings with bit layouts, opcodes, operands.
    Info {
        /// AMD's instruction name, any case (`v_mad_u16`).
        name: String,
        #[arg(long)]
        target: Option<String>,
    },
    /// Disassembles llvm-mc byte lists (default, or a FILE), raw code (`.bin`) or an ELF code
    /// object's executable sections (`.o`, `.elf`, `.co`, `.hsaco`), printing what
    /// `llvm-mc -disassemble` prints. Text is LLVM syntax as far as implemented; mnemonics match.
    Disasm {
        /// A generation or LLVM target (`gfx942`, `cdna3`).
        #[arg(long)]
        target: String,
        /// Append `; encoding: [...]` as llvm-mc does.
        #[arg(long)]
        show_encoding: bool,
        /// Input file; standard input when absent.
        file: Option<PathBuf>,
    },
    /// Reads AMD XML files strictly and prints every finding; exit status 0 only without errors.
    Validate {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Rewrites `generated/` (prose-free) from the XML in AMDGPU_ISA_XML_DIR or xml/.
    Regen {
        /// The repository root (holding `generated/`).
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Stats { target } => stats(target.as_deref()),
        Command::Info { name, target } => info(&name, target.as_deref()),
        Command::Validate { files } => validate(&files),
        Command::Disasm {
            target,
            show_encoding,
            file,
        } => disasm(&target, show_encoding, file.as_deref()),
        Command::Regen { root } => regen(&root),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("amdgpu-isa: {message}");
            ExitCode::from(2)
        }
    }
}

/// The generations a `--target` selects (all when absent).
fn selected(target: Option<&str>) -> Result<Vec<Generation>, String> {
    match target {
        None => Ok(Generation::ALL.to_vec()),
        Some(t) => t
            .parse::<Generation>()
            .map(|g| vec![g])
            .map_err(|e| format!("`{t}`: {e}")),
    }
}

fn stats(target: Option<&str>) -> Result<ExitCode, String> {
    let gens = selected(target)?;
    let mut shown = 0;
    for g in gens {
        let Some(isa) = g.isa() else {
            if target.is_some() {
                return Err(format!(
                    "{g} is not built in: its XML ({}) was not found when this binary was compiled, or its feature is off",
                    g.xml_file_name()
                ));
            }
            continue;
        };
        if shown > 0 {
            println!();
        }
        shown += 1;
        println!(
            "generation: {} ({})",
            g.module_name(),
            isa.architecture_name
        );
        println!("targets: {}", g.llvm_targets().join(" "));
        println!("instructions: {}", isa.instructions.len());
        println!("encodings: {}", isa.encodings.len());
        println!(
            "instruction encodings: {}",
            isa.instruction_encoding_count()
        );
        println!("operand types: {}", isa.operand_types.len());
        println!("data formats: {}", isa.data_formats.len());
    }
    if shown == 0 {
        return Err(
            "no generation is built in: build with AMDGPU_ISA_XML_DIR pointing at AMD's XML".into(),
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn info(name: &str, target: Option<&str>) -> Result<ExitCode, String> {
    let mut found = false;
    for g in selected(target)? {
        let Some(isa) = g.isa() else { continue };
        let Some(inst) = isa.instructions.iter().find(|i| {
            i.name.eq_ignore_ascii_case(name)
                || i.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
        }) else {
            continue;
        };
        found = true;
        println!(
            "{} — {} ({})",
            inst.name,
            g.display_name(),
            g.llvm_targets().join(", ")
        );
        if !inst.description.is_empty() {
            println!("  {}", inst.description.replace('\n', "\n  "));
        }
        if !inst.aliases.is_empty() {
            println!("  aliases: {}", inst.aliases.join(", "));
        }
        let f = inst.flags;
        let flags: Vec<&str> = [
            (f.is_branch, "branch"),
            (f.is_conditional_branch, "conditional-branch"),
            (f.is_indirect_branch, "indirect-branch"),
            (f.is_program_terminator, "program-terminator"),
            (f.is_immediately_executed, "immediately-executed"),
        ]
        .into_iter()
        .filter_map(|(on, n)| on.then_some(n))
        .collect();
        println!(
            "  group: {} [{}]",
            inst.functional_group,
            inst.functional_subgroups.join(", ")
        );
        println!(
            "  flags: {}",
            if flags.is_empty() {
                "none".to_string()
            } else {
                flags.join(", ")
            }
        );
        for ie in inst.encodings {
            let enc = &isa.encodings[ie.encoding as usize];
            let identifier = match enc.identifier_for_opcode(ie.opcode) {
                Some(id) => format!(", identifier {id:#x} under mask {:#x}", enc.identifier_mask),
                None => String::new(),
            };
            println!(
                "  encoding {} ({} bits), condition {}, opcode {}{identifier}",
                enc.name, enc.bits, ie.condition_name, ie.opcode
            );
            let layout: Vec<String> = enc
                .fields
                .iter()
                .map(|f| {
                    let r: Vec<String> = f
                        .ranges
                        .iter()
                        .map(|r| format!("{}:{}", r.offset + r.width - 1, r.offset))
                        .collect();
                    format!("{}[{}]", f.name, r.join(","))
                })
                .collect();
            println!("    fields: {}", layout.join(" "));
            for op in ie.operands {
                let field = op
                    .field
                    .map(|i| enc.fields[i as usize].name)
                    .unwrap_or("(implicit)");
                let dir = match (op.input, op.output) {
                    (true, true) => "in/out",
                    (true, false) => "in",
                    (false, true) => "out",
                    _ => "-",
                };
                println!(
                    "    operand {}: {} {} {} {} bits {}",
                    op.order,
                    field,
                    isa.operand_types[op.operand_type as usize].name,
                    isa.data_formats[op.data_format as usize].name,
                    op.size,
                    dir
                );
            }
        }
        println!();
    }
    if !found {
        return Err(format!(
            "no instruction named `{name}` in the generations built in"
        ));
    }
    Ok(ExitCode::SUCCESS)
}

fn disasm(target: &str, show_encoding: bool, file: Option<&Path>) -> Result<ExitCode, String> {
    use amdgpu_isa::disasm;
    use std::io::{Read, Write};

    let generation = target
        .parse::<Generation>()
        .map_err(|e| format!("`{target}`: {e}"))?;
    let decoder = amdgpu_isa::decode::Decoder::new(generation).ok_or_else(|| {
        format!(
            "{generation} is not built in (its XML was not found when this binary was compiled)"
        )
    })?;
    let name = file.map_or_else(|| String::from("<stdin>"), |f| f.display().to_string());
    let input = match file {
        Some(f) => std::fs::read(f).map_err(|e| format!("{name}: {e}"))?,
        None => {
            let mut v = Vec::new();
            std::io::stdin()
                .read_to_end(&mut v)
                .map_err(|e| format!("<stdin>: {e}"))?;
            v
        }
    };
    let extension = file
        .and_then(|f| f.extension())
        .and_then(|e| e.to_str())
        .unwrap_or("");
    let (bytes, positions) = match extension {
        "bin" => (input, None),
        "o" | "elf" | "co" | "hsaco" => (
            disasm::elf_code(&input).map_err(|e| format!("{name}: {e}"))?,
            None,
        ),
        _ => {
            let text = String::from_utf8(input)
                .map_err(|_| format!("{name}: not text; name a raw file *.bin or an ELF *.o"))?;
            let parsed = disasm::parse_byte_list(&text).map_err(|e| format!("{name}:{e}"))?;
            (parsed.iter().map(|b| b.byte).collect(), Some(parsed))
        }
    };
    let mut out = String::new();
    let mut warnings = Vec::new();
    disasm::disassemble(
        &decoder,
        &bytes,
        positions.as_deref(),
        show_encoding,
        &mut out,
        &mut warnings,
    );
    std::io::stdout()
        .write_all(out.as_bytes())
        .map_err(|e| e.to_string())?;
    for w in &warnings {
        eprintln!("{name}:{w}");
    }
    Ok(ExitCode::SUCCESS)
}

fn validate(files: &[PathBuf]) -> Result<ExitCode, String> {
    let mut errors = 0;
    let mut warnings = 0;
    for file in files {
        let outcome = amdgpu_isa_gen::read_file(file, Strictness::Strict);
        for d in &outcome.findings {
            println!("{d}");
            match d.severity {
                Severity::Error => errors += 1,
                Severity::Warning => warnings += 1,
            }
        }
        if let (Some(isa), Some(g)) = (&outcome.isa, outcome.generation) {
            let c = amdgpu_isa_gen::Counts::of(isa);
            println!(
                "{}: {} ({}): {} instructions, {} encodings, {} operand types, {} data formats",
                file.display(),
                g.module,
                isa.architecture_name,
                c.instructions,
                c.encodings,
                c.operand_types,
                c.data_formats
            );
        }
    }
    println!("{errors} error(s), {warnings} warning(s)");
    Ok(if errors == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn regen(root: &Path) -> Result<ExitCode, String> {
    let dirs = amdgpu_isa_gen::xml_dir::search_dirs(root);
    let out = root.join("generated");
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut written = 0;
    for g in amdgpu_isa_gen::GENERATIONS {
        let Some(xml) = amdgpu_isa_gen::xml_dir::find_xml(&dirs, g) else {
            eprintln!("skipped {}: {} not found", g.display, g.file);
            continue;
        };
        let (isa, _, _) = amdgpu_isa_gen::read_file(&xml, Strictness::Lenient)
            .into_result()
            .map_err(|e| e.to_string())?;
        let code = emit::emit_generation(&isa, g, Prose::Omit)?;
        let path = out.join(format!("{}.rs", g.module));
        std::fs::write(&path, code).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("wrote {}", path.display());
        written += 1;
    }
    if written == 0 {
        return Err(format!(
            "no XML found in {}",
            dirs.iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Ok(ExitCode::SUCCESS)
}
