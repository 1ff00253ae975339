//! Source files and spans. Owns the text of every spec file read, hands out
//! `FileId`s, and turns byte offsets into `line:col` for diagnostics. Nothing
//! here knows about the DSL.

use serde::{Deserialize, Serialize};

/// Index of a file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct FileId(pub u32);

/// A byte range in one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Span {
    /// The file it is in.
    pub file: FileId,
    /// Byte offset of its first byte.
    pub start: u32,
    /// Byte offset just past its last byte.
    pub end: u32,
}

impl Span {
    /// The bytes `start..end` of `file`.
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span { file, start: start as u32, end: end as u32 }
    }
    /// A sub-range, given offsets relative to this span's start.
    pub fn sub(self, start: usize, end: usize) -> Span {
        Span { file: self.file, start: self.start + start as u32, end: self.start + end as u32 }
    }
    /// The byte range, for slicing the file's text.
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// One loaded spec file.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// Path as given by the user, relative to the current directory when
    /// below it (used in diagnostics).
    pub name: String,
    /// Path below the spec's project (see `isa_dsl::spec_names`:
    /// `spec/a.txt` for `spec`, `../spec` or `/abs/spec`): how generated
    /// files and the manual name the file, whatever the current directory.
    /// The same as `name` for files not loaded from disk.
    pub spec_name: String,
    /// The text; invalid UTF-8 was replaced and reported when the file was added.
    pub text: String,
    line_starts: Vec<u32>,
}

impl SourceFile {
    fn new(name: String, text: String) -> SourceFile {
        let mut line_starts = vec![0u32];
        let bytes = text.as_bytes();
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')) {
                line_starts.push(i as u32 + 1);
            }
        }
        SourceFile { spec_name: name.clone(), name, text, line_starts }
    }

    /// 1-based line and column (column counted in characters) of a byte offset.
    pub fn line_col(&self, offset: u32) -> (usize, usize) {
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line] as usize;
        let end = (offset as usize).min(self.text.len());
        let col = self.text.get(start..end).map(|s| s.chars().count()).unwrap_or(end - start);
        (line + 1, col + 1)
    }

    /// Byte offsets at which each line starts.
    pub fn line_starts(&self) -> &[u32] {
        &self.line_starts
    }
}

/// All files of one compilation.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// Adds a file from text.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        let id = FileId(self.files.len() as u32);
        self.files.push(SourceFile::new(name.into(), text.into()));
        id
    }

    /// Adds a file from raw bytes. Invalid UTF-8 is replaced by U+FFFD; the
    /// byte offset of the first invalid sequence is returned so the caller can
    /// report it.
    pub fn add_bytes(&mut self, name: impl Into<String>, bytes: &[u8]) -> (FileId, Option<usize>) {
        // A byte-order mark (editors on Windows write one) is not text.
        let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
        match std::str::from_utf8(bytes) {
            Ok(s) => (self.add(name, s), None),
            Err(e) => {
                let bad = e.valid_up_to();
                (self.add(name, String::from_utf8_lossy(bytes).into_owned()), Some(bad))
            }
        }
    }

    /// Sets the [`SourceFile::spec_name`] of file `id`.
    pub fn set_spec_name(&mut self, id: FileId, name: String) {
        self.files[id.0 as usize].spec_name = name;
    }

    /// The same files, each named by its [`SourceFile::spec_name`]: what
    /// generated files quote.
    pub fn with_spec_names(&self) -> SourceMap {
        let mut m = self.clone();
        for f in &mut m.files {
            f.name = f.spec_name.clone();
        }
        m
    }

    /// The file `id` (panics if there is none).
    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    /// Every file with its id, in the order added.
    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files.iter().enumerate().map(|(i, f)| (FileId(i as u32), f))
    }

    /// Number of files.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether no file has been added.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The text a span covers.
    pub fn text(&self, span: Span) -> &str {
        self.get(span.file).text.get(span.range()).unwrap_or("")
    }

    /// `file:line:col` of a span's start.
    pub fn location(&self, span: Span) -> String {
        let f = self.get(span.file);
        let (l, c) = f.line_col(span.start);
        format!("{}:{}:{}", f.name, l, c)
    }
}

/// The UTF-8 byte-order mark, skipped at the start of a file.
pub const BOM: &[u8] = "\u{feff}".as_bytes();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_byte_order_mark_is_not_text() {
        let mut m = SourceMap::new();
        let (id, bad) = m.add_bytes("a.txt", "\u{feff}__DefGroup A : [ALL]\n".as_bytes());
        assert_eq!((m.get(id).text.as_str(), bad), ("__DefGroup A : [ALL]\n", None));
        // Elsewhere it is a character like any other.
        let (id, _) = m.add_bytes("b.txt", "x\u{feff}".as_bytes());
        assert_eq!(m.get(id).text, "x\u{feff}");
    }
}
