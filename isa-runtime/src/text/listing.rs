//! A words file to its listing: the one loop both disassemblers run
//! (`isa-codegen disasm` through the interpreted path, `isa disasm` through
//! the generated one). Each entry of a [`Words`](crate::text::words::Words) becomes one line of text
//! that assembles back to the word: the instruction, or `.word` when the
//! text would lose the word (no form writes it, W026; bits no field covers,
//! W019; it does not decode, E041), or `// not a word` for a bad line of a
//! hex file (E042). What to report comes back as [`Finding`](crate::text::listing::Finding)s, in file
//! order, for the caller to render with its own diagnostics.

use super::words::{Entry, Words};
use crate::report::codes;

/// What a disassembler gives the loop, for one ISA.
pub trait Printer {
    /// Appends the instruction text of `w` to `out` (its first form that
    /// can print it, else `.word` and the word), or says why `w` does not
    /// decode (nothing appended).
    fn print(&self, w: u128, out: &mut String) -> Result<(), String>;
    /// The name of the opcode `w` decodes as.
    fn opcode(&self, w: u128) -> Option<String>;
    /// When `w` decodes but has bits set that no field of its opcode
    /// covers: the opcode and those bits.
    fn stray_bits(&self, w: u128) -> Option<(String, u128)>;
}

/// A diagnostic of the listing, placed in the words file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Code and title ([`codes`]).
    pub code: (&'static str, &'static str),
    /// An error (else a warning).
    pub error: bool,
    /// Byte offset and length in the file when it is hex text.
    pub span: Option<(usize, usize)>,
    /// What to report.
    pub message: String,
    /// The code's title goes under the caret (else the caret alone: the
    /// message says what is wrong there).
    pub titled: bool,
}

/// The listing of `words`, one line per entry, and what to report.
pub fn disassemble(words: &Words, p: &impl Printer) -> (String, Vec<Finding>) {
    let mut out = Vec::with_capacity(words.words.len() * 48);
    let mut found = Vec::new();
    // Writing to memory does not fail.
    let _ = write_listing(words, p, &mut out, |f| found.push(f));
    // Lines are whole `&str`s (the printers' text and this module's), so this is never lossy.
    (String::from_utf8_lossy(&out).into_owned(), found)
}

/// How much of the listing [`write_listing`] gathers before it writes it out.
const CHUNK: usize = 64 * 1024;

/// [`disassemble`], writing the listing to `sink` as it goes (in chunks of
/// about 64 KiB), so that a listing far larger than memory streams out, and
/// handing each finding to `found` as it is made, in file order (a caller
/// that keeps only what it shows keeps little, whatever the file). Gives
/// the first write error, if any: a write that fails stops the writing,
/// not the listing, so every finding is still made. A reader that went
/// away (a closed pipe: `| head`) is no error.
pub fn write_listing(words: &Words, p: &impl Printer, sink: &mut impl std::io::Write, mut found: impl FnMut(Finding)) -> std::io::Result<()> {
    let mut out = String::with_capacity(CHUNK + 512);
    // `Some` once the writing has stopped: why (`Ok` for a closed pipe).
    let mut stopped: Option<std::io::Result<()>> = None;
    let mut flush = |out: &mut String, stopped: &mut Option<std::io::Result<()>>, last: bool| {
        if stopped.is_none() {
            let written = sink.write_all(out.as_bytes()).and_then(|()| if last { sink.flush() } else { Ok(()) });
            match written {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => *stopped = Some(Ok(())),
                Err(e) => *stopped = Some(Err(e)),
            }
        }
        out.clear();
    };
    for entry in words.entries() {
        list_entry(entry, p, &mut out, &mut found);
        if out.len() >= CHUNK {
            flush(&mut out, &mut stopped, false);
        }
    }
    flush(&mut out, &mut stopped, true);
    stopped.unwrap_or(Ok(()))
}

/// Appends the line of one entry to `out`, and hands what to report to `found`.
fn list_entry(entry: Entry, p: &impl Printer, out: &mut String, found: &mut impl FnMut(Finding)) {
    let mut report = |code, error, span, message, titled| found(Finding { code, error, span, message, titled });
    let (k, w, span) = match entry {
        Entry::Word { index, word, span } => (index, word, span),
        Entry::Bad(e) => {
            out.push_str("// not a word\n");
            report(codes::WORDS_FILE, true, e.span, e.message.clone(), false);
            return;
        }
    };
    let place = word_place(k, span.is_some());
    let line = out.len();
    match p.print(w, out) {
        // It decodes, but no form prints it: `.word`, and why.
        Ok(()) if out[line..].starts_with(".word") => {
            out.truncate(line);
            let opcode = p.opcode(w).unwrap_or_default();
            out.push_str(&format!(".word {w:#034x} ; // {opcode}: no syntax form writes this word\n"));
            let message = format!("{place}{w:#034x} is a {opcode} that no syntax form writes (see `check`): printed as `.word`");
            report(codes::UNWRITABLE, false, span, message, true);
        }
        // Bits no field covers would not come back from the text: the
        // word is kept as data, its text a comment.
        Ok(()) => match p.stray_bits(w) {
            Some((opcode, bits)) => {
                let text = out.split_off(line);
                out.push_str(&format!(".word {w:#034x} ; // {text} with bits {bits:#x} no field covers\n"));
                let message = format!("{place}{w:#034x} has bits {bits:#x} no field of {opcode} covers: printed as `.word`, so that it assembles back to itself");
                report(codes::STRAY_BITS, false, span, message, true);
            }
            None => out.push_str(" ;\n"),
        },
        Err(reason) => {
            out.push_str(&format!(".word {w:#034x} ; // does not decode: {reason}\n"));
            report(codes::DISASM_ERROR, true, span, format!("{place}{w:#034x} does not decode: {reason}"), true);
        }
    }
}

/// How a message names word `index`: nothing when the word has a place in
/// a hex text (the diagnostic points there), else its index and byte range
/// in the binary file (`word 3 (bytes 48..64), `).
fn word_place(index: usize, in_text: bool) -> String {
    if in_text {
        String::new()
    } else {
        format!("word {index} (bytes {}..{}), ", 16 * index, 16 * index + 16)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::words::read_words;

    /// A toy ISA: words below 16 print as `OPn`, 16 has no form, 17 has a
    /// stray bit, anything else does not decode.
    struct Toy;

    impl Printer for Toy {
        fn print(&self, w: u128, out: &mut String) -> Result<(), String> {
            match w {
                0..=15 | 17 => out.push_str(&format!("OP{w}")),
                16 => out.push_str(&format!(".word {w:#034x}")),
                _ => return Err("unknown opcode".into()),
            }
            Ok(())
        }
        fn opcode(&self, w: u128) -> Option<String> {
            (w <= 17).then(|| format!("OP_{w}"))
        }
        fn stray_bits(&self, w: u128) -> Option<(String, u128)> {
            (w == 17).then(|| ("OP_17".into(), 1))
        }
    }

    #[test]
    fn every_entry_gives_one_line_and_every_loss_a_finding() {
        let words = read_words(b"3\n10\nzz\n11\n12\n").unwrap();
        let (text, found) = disassemble(&words, &Toy);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines,
            [
                "OP3 ;",
                ".word 0x00000000000000000000000000000010 ; // OP_16: no syntax form writes this word",
                "// not a word",
                ".word 0x00000000000000000000000000000011 ; // OP17 with bits 0x1 no field covers",
                ".word 0x00000000000000000000000000000012 ; // does not decode: unknown opcode",
            ]
        );
        let codes: Vec<(&str, bool, bool)> = found.iter().map(|f| (f.code.0, f.error, f.titled)).collect();
        assert_eq!(codes, [("W026", false, true), ("E042", true, false), ("W019", false, true), ("E041", true, true)]);
        // Hex text: the findings point at the words, and the messages do
        // not repeat the place.
        assert_eq!(found[0].span, Some((2, 2)));
        assert!(found[3].message.starts_with("0x00000000000000000000000000000012 does not decode"), "{}", found[3].message);
    }

    /// A sink that takes `room` bytes, then says the reader went away.
    struct Pipe {
        got: Vec<u8>,
        room: usize,
        writes: usize,
    }

    impl std::io::Write for Pipe {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.writes += 1;
            if self.got.len() >= self.room {
                return Err(std::io::ErrorKind::BrokenPipe.into());
            }
            let n = b.len().min(self.room - self.got.len());
            self.got.extend_from_slice(&b[..n]);
            Ok(n)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_long_listing_streams_in_chunks_and_a_failed_write_keeps_the_findings() {
        // 40,000 words: about 280 KB of listing, every 4th word a finding.
        let text: String = (0..40_000u32).map(|k| format!("{:x}\n", if k % 4 == 0 { 16 } else { k % 16 })).collect();
        let words = read_words(text.as_bytes()).unwrap();
        let (whole, all) = disassemble(&words, &Toy);
        assert_eq!((whole.lines().count(), all.len()), (40_000, 10_000));
        let mut pipe = Pipe { got: Vec::new(), room: usize::MAX, writes: 0 };
        let mut found = Vec::new();
        assert!(write_listing(&words, &Toy, &mut pipe, |f| found.push(f)).is_ok());
        assert_eq!(found, all);
        assert_eq!(pipe.got, whole.as_bytes(), "the same bytes as the listing in memory");
        assert!(pipe.writes >= whole.len() / (CHUNK + 512), "written as it goes, not at the end: {} writes", pipe.writes);
        // The reader goes away after 100 KB: writing stops there, the findings are all there.
        let mut pipe = Pipe { got: Vec::new(), room: 100_000, writes: 0 };
        let mut found = Vec::new();
        let written = write_listing(&words, &Toy, &mut pipe, |f| found.push(f));
        assert_eq!((found, written.is_ok()), (all.clone(), true));
        assert_eq!(pipe.got, whole.as_bytes()[..100_000]);
        // Any other error stops the writing and is returned, with every finding.
        struct Full;
        impl std::io::Write for Full {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("disk full"))
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let mut found = Vec::new();
        let written = write_listing(&words, &Toy, &mut Full, |f| found.push(f));
        assert_eq!((found, written.unwrap_err().to_string()), (all, "disk full".to_string()));
    }

    #[test]
    fn a_binary_word_is_named_by_its_index_and_bytes() {
        let bytes: Vec<u8> = [3u128, 18].iter().flat_map(|w| w.to_le_bytes()).collect();
        let words = crate::text::words::read_words_as(&bytes, crate::text::words::WordsFormat::Binary).unwrap();
        let (_, found) = disassemble(&words, &Toy);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].span, None);
        assert!(found[0].message.starts_with("word 1 (bytes 16..32), 0x"), "{}", found[0].message);
    }
}
