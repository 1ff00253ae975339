//! Instruction words as files: hex text (one word per line, most
//! significant digit first, `0x` optional, `//` comments) or raw 16-byte
//! little-endian words. Shared by `isa-codegen asm/disasm` and the `isa` tool.

use std::path::Path;

/// Reads instruction words from a file: hex words one per line (`0x` optional,
/// `//` comments allowed) if the file is text of that shape, else 16-byte
/// little-endian words.
pub fn read_words(bytes: &[u8]) -> Result<Vec<u128>, String> {
    if let Ok(text) = std::str::from_utf8(bytes) {
        let lines: Vec<&str> = text
            .lines()
            .map(|l| l.split("//").next().unwrap_or("").trim())
            .filter(|l| !l.is_empty())
            .collect();
        let parsed: Option<Vec<u128>> = lines
            .iter()
            .map(|l| {
                let h = l.strip_prefix("0x").unwrap_or(l);
                (h.len() <= 32 && h.bytes().all(|b| b.is_ascii_hexdigit())).then(|| u128::from_str_radix(h, 16).ok()).flatten()
            })
            .collect();
        if let Some(words) = parsed {
            if !lines.is_empty() {
                return Ok(words);
            }
        }
    }
    if !bytes.len().is_multiple_of(16) {
        return Err(format!("{} bytes is not a whole number of 16-byte words, and the file is not hex text", bytes.len()));
    }
    Ok(bytes.chunks_exact(16).map(|c| u128::from_le_bytes(c.try_into().unwrap_or([0; 16]))).collect())
}

/// Hex text of words: 32 digits each, most significant first, one per line.
pub fn hex_lines(words: &[u128]) -> String {
    let mut s = String::with_capacity(words.len() * 33);
    for w in words {
        s.push_str(&format!("{w:032x}\n"));
    }
    s
}

/// Words as 16-byte little-endian records (byte 0 holds bits 0..7).
pub fn to_bytes(words: &[u128]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Writes a file all or nothing: a temporary file beside it, then a rename,
/// so a failed write never leaves a half-written output.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
    let tmp = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
    std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path)).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}
