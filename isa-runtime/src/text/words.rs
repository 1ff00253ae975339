//! Instruction words as files: hex text (one word per line, most
//! significant digit first, `0x` optional, `//` comments) or raw 16-byte
//! little-endian words. Shared by `isa-codegen asm/disasm` and the `isa` tool,
//! which point their errors at the words' places through [`Words::spans`];
//! reading and writing the files themselves is [`crate::files`]'s.

/// Instruction words read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Words {
    /// The words, in file order.
    pub words: Vec<u128>,
    /// Per word, the byte offset and length of its hex digits in the file when the
    /// file is hex text; `None` for a binary file (word k is bytes 16k..16k+16).
    pub spans: Option<Vec<(usize, usize)>>,
    /// Lines of hex text that are not words (in a binary file, bytes after
    /// the last whole word), each with the number of words read before it
    /// (so a caller can report them in order and go on).
    pub bad: Vec<(usize, WordsError)>,
}

/// One line of a words file, in file order: a word (its index among the
/// words, and its place when the file is hex text) or a line that is not one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry<'a> {
    /// An instruction word.
    Word {
        /// Its index among the words.
        index: usize,
        /// The word.
        word: u128,
        /// Byte offset and length of its hex digits, when the file is hex text.
        span: Option<(usize, usize)>,
    },
    /// A line that is not a word (in a binary file, the bytes after the last whole word).
    Bad(&'a WordsError),
}

impl Words {
    /// The words and the bad lines, interleaved as the file has them, so a
    /// disassembler reports each where it is and goes on.
    pub fn entries(&self) -> impl Iterator<Item = Entry<'_>> {
        let mut bad = self.bad.iter().peekable();
        let mut words = self.words.iter().enumerate().peekable();
        std::iter::from_fn(move || {
            let next_word = words.peek().map(|(k, _)| *k);
            if let Some((_, e)) = bad.next_if(|(before, _)| next_word.is_none_or(|k| *before <= k)) {
                return Some(Entry::Bad(e));
            }
            let (index, &word) = words.next()?;
            Some(Entry::Word { index, word, span: self.spans.as_ref().and_then(|s| s.get(index).copied()) })
        })
    }
}

/// Why a file is not instruction words: the reason, and the byte offset and length of
/// the offending text when the file is hex text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WordsError {
    /// What is wrong.
    pub message: String,
    /// Byte offset and length of the offending text, when the file is hex text.
    pub span: Option<(usize, usize)>,
}

/// How a words file is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WordsFormat {
    /// Hex text when the file reads as text, else binary (see [`read_words`]).
    #[default]
    Auto,
    /// Hex words, one per line.
    Hex,
    /// 16-byte little-endian words.
    Binary,
}

impl std::str::FromStr for WordsFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "auto" => Ok(WordsFormat::Auto),
            "hex" => Ok(WordsFormat::Hex),
            "binary" => Ok(WordsFormat::Binary),
            _ => Err(format!("`{s}` is not a words format: auto, hex or binary")),
        }
    }
}

impl WordsFormat {
    /// The spellings [`FromStr`](std::str::FromStr) takes, for command lines.
    pub const NAMES: [&'static str; 3] = ["auto", "hex", "binary"];
}

/// Reads instruction words from a file. A file that is text (UTF-8 with no
/// control characters but tab, CR, LF, form feed and vertical tab) is hex words, one per line: up to
/// 32 hex digits, most significant first, `0x` optional, blank lines and
/// `//` comments allowed; every line that is not a word is in [`Words::bad`],
/// with its place. So is a file whose lines (16 bytes or more) read as hex
/// words up to a first byte that is not text (a stray byte in a hex file is an error there, not
/// a reason to read the file as binary). Any other file is 16-byte
/// little-endian words. [`read_words_as`] settles the format instead.
pub fn read_words(bytes: &[u8]) -> Result<Words, WordsError> {
    read_words_as(bytes, WordsFormat::Auto)
}

/// [`read_words`] in a given format.
pub fn read_words_as(bytes: &[u8], format: WordsFormat) -> Result<Words, WordsError> {
    let text_end = text_prefix(bytes);
    let hex = match format {
        WordsFormat::Hex => true,
        WordsFormat::Binary => false,
        WordsFormat::Auto => text_end == bytes.len() || looks_like_hex_words(&bytes[..text_end]) || hex_but_comments(bytes, text_end),
    };
    if !hex {
        let why = if format == WordsFormat::Auto { " (the file is binary: it is not text)" } else { "" };
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        let (n, rest) = (bytes.len() / 16, bytes.len() % 16);
        // Whole words are read; bytes after the last one (or a file shorter
        // than a word) are an error after it, where the output says so.
        let bad = (rest > 0)
            .then(|| {
                let message = if n == 0 {
                    format!("the file's {rest} byte{} are not a whole 16-byte word{why}", plural(rest))
                } else {
                    format!("the last {rest} byte{} (bytes {}..{}) are not a whole 16-byte word{why}", plural(rest), 16 * n, bytes.len())
                };
                (n, WordsError { message, span: None })
            })
            .into_iter()
            .collect();
        return Ok(Words { words: bytes.chunks_exact(16).map(|c| u128::from_le_bytes(c.try_into().unwrap_or([0; 16]))).collect(), spans: None, bad });
    }
    if text_end < bytes.len() {
        let line = 1 + bytes[..text_end].iter().filter(|&&b| b == b'\n').count();
        let col = 1 + text_end - bytes[..text_end].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let hint = match format {
            WordsFormat::Auto if looks_like_hex_words(&bytes[..text_end]) => "; the lines before it are hex words (`--format binary` reads the file as binary words)",
            WordsFormat::Auto => "; it is in a comment of a file of hex words (`--format binary` reads the file as binary words)",
            _ => "",
        };
        return Err(WordsError {
            message: format!("byte {:#04x} at line {line}, column {col} is not text in a hex words file{hint}", bytes[text_end]),
            span: None,
        });
    }
    hex_words(std::str::from_utf8(bytes).unwrap_or_default())
}

/// The length of the longest prefix of `bytes` that is text (UTF-8 with no
/// control characters but tab, CR, LF, and the form feed and vertical tab
/// the assembler also reads as spaces).
fn text_prefix(bytes: &[u8]) -> usize {
    let valid = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default(),
    };
    valid.char_indices().find(|&(_, c)| c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0b' | '\x0c')).map_or(valid.len(), |(i, _)| i)
}

/// Whether the whole lines of a text read as hex words, at least one, over
/// 16 bytes or more (binary words start so by chance about once in 10^16).
fn looks_like_hex_words(text: &[u8]) -> bool {
    let Some(end) = text.iter().rposition(|&b| b == b'\n').filter(|&e| e >= 16) else { return false };
    std::str::from_utf8(&text[..end + 1]).ok().and_then(|t| hex_words(t).ok()).is_some_and(|w| w.bad.is_empty() && !w.words.is_empty())
}

/// Whether a file whose first byte that is not text (at `text_end`) is in
/// a `//` comment reads as hex words everywhere else: every line is a word,
/// blank or a comment, with at least one word (a comment in Latin-1 is a
/// hex file with a stray byte, not a binary file).
fn hex_but_comments(bytes: &[u8], text_end: usize) -> bool {
    let line_start = bytes[..text_end].iter().rposition(|&b| b == b'\n' || b == b'\r').map_or(0, |i| i + 1);
    bytes[line_start..text_end].windows(2).any(|w| w == b"//")
        && hex_words(&String::from_utf8_lossy(bytes)).is_ok_and(|w| w.bad.is_empty() && !w.words.is_empty())
}

/// The words of a hex text.
fn hex_words(text: &str) -> Result<Words, WordsError> {
    let mut words = Vec::new();
    let mut spans = Vec::new();
    let mut bad = Vec::new();
    // A byte-order mark (editors on Windows write one) is not text.
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let bom = text.len() - body.len();
    for (offset, line) in super::lex::lines(body) {
        let code = line.split("//").next().unwrap_or("");
        let start = bom + offset + code.len() - code.trim_start().len();
        let word = code.trim();
        if word.is_empty() {
            continue;
        }
        let prefix = if word.starts_with("0x") || word.starts_with("0X") { 2 } else { 0 };
        let digits = &word[prefix..];
        let error = if let Some((i, c)) = digits.char_indices().find(|(_, c)| !c.is_ascii_hexdigit()) {
            // At the offending character.
            Some(WordsError {
                // A line can be a megabyte: the quote is cut, as the assembler's are.
                message: super::asm::shorten_quotes(&format!("`{word}` is not a hex word: `{c}` is not a hex digit (a word is up to 32 hex digits, `0x` optional)")),
                span: Some((start + prefix + i, c.len_utf8())),
            })
        } else if digits.is_empty() || digits.len() > 32 {
            let message = super::asm::shorten_quotes(&format!("`{word}` has {} hex digits; a word has 1 to 32", digits.len()));
            Some(WordsError { message, span: Some((start, word.len())) })
        } else {
            None
        };
        match error {
            Some(e) => bad.push((words.len(), e)),
            None => {
                // 1..=32 hex digits always fit.
                words.push(u128::from_str_radix(digits, 16).unwrap_or_default());
                spans.push((start, word.len()));
            }
        }
    }
    Ok(Words { words, spans: Some(spans), bad })
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// What `hex_lines` and `to_bytes` write reads back, with each
        /// hex word's place in the text.
        #[test]
        fn written_words_read_back(words in proptest::collection::vec(any::<u128>(), 0..20)) {
            let text = hex_lines(&words);
            let read = read_words(text.as_bytes()).unwrap();
            prop_assert_eq!(&read.words, &words);
            let spans = read.spans.unwrap();
            for (k, &(at, len)) in spans.iter().enumerate() {
                prop_assert_eq!((at, len), (33 * k, 32));
            }
            // Random words are text (UTF-8 without control bytes) all but never.
            let bytes = to_bytes(&words);
            let text = std::str::from_utf8(&bytes).is_ok_and(|t| t.chars().all(|c| !c.is_control() || matches!(c, '\t' | '\n' | '\r')));
            if !text {
                prop_assert_eq!(read_words(&bytes).unwrap(), Words { words, spans: None, bad: Vec::new() });
            }
        }

        /// Any bytes, in every format: no panic, and every place reported
        /// (a word's, a bad line's, the error's) lies inside the input.
        #[test]
        fn any_bytes_read_without_panic_and_places_inside(
            bytes in prop_oneof![
                proptest::collection::vec(any::<u8>(), 0..200),
                // Mostly hex text, with some junk.
                proptest::collection::vec(prop_oneof![Just(b'0'), Just(b'f'), Just(b'x'), Just(b'\n'), Just(b'/'), Just(b' '), Just(b'\r'), any::<u8>()], 0..200),
            ],
            format in prop_oneof![Just(WordsFormat::Auto), Just(WordsFormat::Hex), Just(WordsFormat::Binary)],
        ) {
            let inside = |(at, len): (usize, usize)| at + len <= bytes.len();
            match read_words_as(&bytes, format) {
                Ok(w) => {
                    for &span in w.spans.iter().flatten() {
                        prop_assert!(inside(span), "{span:?} of {}", bytes.len());
                    }
                    for (before, e) in &w.bad {
                        prop_assert!(*before <= w.words.len());
                        prop_assert!(e.span.is_none_or(inside), "{:?} of {}", e.span, bytes.len());
                    }
                    if w.spans.is_none() {
                        prop_assert_eq!(w.words.len(), bytes.len() / 16);
                    }
                }
                Err(e) => prop_assert!(e.span.is_none_or(inside), "{:?} of {}", e.span, bytes.len()),
            }
        }
    }

    #[test]
    fn hex_text_takes_comments_prefixes_and_short_words() {
        let text = "// header\n\n  0x1F // one\r\n0XaB\n00000000000000000000000000000001\n";
        let read = read_words(text.as_bytes()).unwrap();
        assert_eq!(read.words, [0x1F, 0xAB, 1]);
        let spans = read.spans.unwrap();
        assert_eq!(&text[spans[0].0..spans[0].0 + spans[0].1], "0x1F");
        assert_eq!(&text[spans[1].0..spans[1].0 + spans[1].1], "0XaB");
        assert_eq!(spans[2], (text.len() - 33, 32));
    }

    #[test]
    fn every_bad_line_of_hex_text_is_reported_at_its_place() {
        // 32 bytes: a whole number of words, but text, so it is hex text and wrong.
        let text = "0000000000000001\n  0x12z4 // bad\n";
        let read = read_words(text.as_bytes()).unwrap();
        assert_eq!(read.words, [1]);
        let (before, e) = &read.bad[0];
        assert_eq!((*before, e.span), (1, Some((23, 1))), "at the `z`");
        assert!(e.message.contains("`0x12z4` is not a hex word: `z`"), "{}", e.message);
        // Reading goes on after a bad line: every one is reported, in order.
        let text = format!("{}\n0x\n5\nxyz\n", "1".repeat(33));
        // A megabyte of hex digits is quoted cut, not whole.
        let long = format!("{}\n", "f".repeat(1 << 20));
        let e = &read_words_as(long.as_bytes(), WordsFormat::Hex).unwrap().bad[0].1;
        assert!(e.message.len() < 200 && e.message.contains('…') && e.message.ends_with("has 1048576 hex digits; a word has 1 to 32"), "{}", e.message);
        let read = read_words(text.as_bytes()).unwrap();
        assert_eq!(read.words, [5]);
        type Bad<'a> = (usize, Option<(usize, usize)>, &'a str);
        let bad: Vec<Bad> = read.bad.iter().map(|(k, e)| (*k, e.span, e.message.as_str())).collect();
        assert_eq!(bad[0], (0, Some((0, 33)), "`111111111111111111111111111111111` has 33 hex digits; a word has 1 to 32"));
        assert_eq!((bad[1].0, bad[1].1), (0, Some((34, 2))));
        assert!(bad[1].2.contains("has 0 hex digits"), "{}", bad[1].2);
        assert_eq!((bad[2].0, bad[2].1), (1, Some((39, 1))), "the `x` of `xyz`");
        // In file order: bad, bad, the word, bad.
        let order: Vec<Option<u128>> = read.entries().map(|e| match e { Entry::Word { word, .. } => Some(word), Entry::Bad(_) => None }).collect();
        assert_eq!(order, [None, None, Some(5), None]);
    }

    #[test]
    fn a_byte_order_mark_is_not_text() {
        let text = "\u{feff}0x1F\r\n2\r\n";
        let read = read_words(text.as_bytes()).unwrap();
        assert_eq!(read.words, [0x1F, 2]);
        assert_eq!(read.spans.unwrap()[0], (3, 4));
        // Lone CRs end lines too.
        let read = read_words(b"0x1F\r2\r3").unwrap();
        assert_eq!((read.words, read.spans.unwrap()), (vec![0x1F, 2, 3], vec![(0, 4), (5, 1), (7, 1)]));
    }

    #[test]
    fn a_stray_byte_in_hex_text_is_reported_not_read_as_binary() {
        // 48 bytes: a binary guess would read three words of garbage.
        let mut bytes = b"0000000000000000000000010000704\n".to_vec();
        bytes.extend_from_slice(b"\xff00000000000000\n");
        let e = read_words(&bytes).unwrap_err();
        assert!(e.message.starts_with("byte 0xff at line 2, column 1 is not text in a hex words file"), "{}", e.message);
        // Told so, the same bytes are binary words.
        assert_eq!(read_words_as(&bytes, WordsFormat::Binary).unwrap().words.len(), 3);
        // 16 hex digits with no newline are text unless told otherwise.
        let digits = b"0000000100007041";
        assert_eq!(read_words(digits).unwrap().words, [0x100007041]);
        assert_eq!(read_words_as(digits, WordsFormat::Binary).unwrap().words, [u128::from_le_bytes(*digits)]);
        // A first line that is a comment with a Latin-1 byte: still hex
        // words, the byte reported where it is (48 bytes, as above).
        let latin1 = b"// caf\xe9 abcdef\n00000000000000000000000100007041\n";
        assert_eq!(latin1.len(), 48);
        let e = read_words(latin1).unwrap_err();
        assert!(e.message.starts_with("byte 0xe9 at line 1, column 7 is not text in a hex words file; it is in a comment"), "{}", e.message);
        // Binary whose first bytes are `//`, then bytes that are not text, is still binary.
        let mut slashes = b"//".to_vec();
        slashes.extend_from_slice(&[0x80u8; 30]);
        assert_eq!(read_words(&slashes).unwrap().words.len(), 2);
        // Binary that happens to start with a newline is still binary.
        let mut bin = vec![b'\n'; 1];
        bin.extend_from_slice(&[0xffu8; 31]);
        assert_eq!(read_words(&bin).unwrap().words.len(), 2);
        assert_eq!("binary".parse(), Ok(WordsFormat::Binary));
    }

    #[test]
    fn binary_is_whole_words_little_endian() {
        let mut bytes = vec![0u8; 32];
        bytes[0] = 0x12;
        bytes[31] = 0x80;
        let read = read_words(&bytes).unwrap();
        assert_eq!(read, Words { words: vec![0x12, 0x80 << 120], spans: None, bad: Vec::new() });
        // Whole words are read, and the bytes after them are an error after them.
        let read = read_words(&bytes[..31]).unwrap();
        assert_eq!(read.words, [0x12]);
        assert_eq!(read.bad.len(), 1);
        assert_eq!((read.bad[0].0, read.bad[0].1.span), (1, None));
        assert_eq!(read.bad[0].1.message, "the last 15 bytes (bytes 16..31) are not a whole 16-byte word (the file is binary: it is not text)");
        assert!(matches!(read.entries().last(), Some(Entry::Bad(_))));
        // A file shorter than a word: no words, and the bytes are that error.
        let read = read_words(&bytes[..15]).unwrap();
        assert!(read.words.is_empty());
        assert_eq!(read.bad[0].1.message, "the file's 15 bytes are not a whole 16-byte word (the file is binary: it is not text)");
        // A form feed in a hex file is a space, as in assembly, not a sign of binary.
        let read = read_words(b"00000000000000000000000201007510\x0c\n0x12\x0b\n").unwrap();
        assert_eq!((read.words.as_slice(), read.bad.len()), ([0x0201007510u128, 0x12].as_slice(), 0));
    }
}
