//! The assembler's fast path. A line as the disassembler prints it
//! (printable ASCII, spaces, no label, comment or indexed register; a
//! `.word` line too) is read in one pass over its bytes; its mnemonic and modifiers are found by hashing
//! (in [`Tables`], built from the [`Model`] on first use): a whole dotted
//! mnemonic as the disassembler writes it (`IDP.4A.U8.S8`) gives its forms
//! and the bits its modifiers set at once, other spellings are placed part
//! by part into a form's slots by bit masks, and the forms tried in the order
//! [`super::asm`] tries them, with the same operand placement and checks.
//! The fast path gives what the general path gives, or nothing: a line it
//! does not read, and every line that does not assemble, goes to the general
//! path, which also words the errors. Tests hold the two equal.

use super::asm::{decorate, float_shape, int_value, lane_bits, Assembled, Pre, RegName, MAX_SLOTS};
use super::lex::{Core, List, OperandText, Tok, MAX_CONTROLS, MAX_OPERANDS, MAX_PARTS};
use super::literal::{int, parse_float, register_number, signed};
use super::model::*;

/// The lookup tables of the fast path, built from a [`Model`] on first use
/// (about 4 ms for the seeds, most of it spelling every dotted mnemonic):
/// mnemonics and modifier spellings by hash, and per
/// form the slots each spelling fits.
pub struct Tables {
    /// Packed base mnemonic -> its index in [`Model::mnemonics`].
    mnemonics: Table,
    /// Packed modifier spelling -> its number (every spelling of every slot).
    spellings: Table,
    /// Per opcode, the index in `forms` of its first form.
    first_form: Box<[u32]>,
    forms: Box<[FormTable]>,
    /// (form, spelling) -> index in `fits`: the slots of the form that take the spelling.
    fit_index: Table,
    fits: Box<[Fit]>,
    /// Per [`Fit`], what each of its slots does, in slot order.
    acts: Box<[Act]>,
    /// Every form's operands as [`kinds_fit`] reads them, form after form.
    wants: Box<[Want]>,
    /// Packed register prefixes and their classes, when every prefix is
    /// letters and so a name's leading letters are its prefix or none is.
    prefixes: Option<Box<[(u64, u16)]>>,
    /// Some named register's name ends in a digit (else names that do
    /// are not looked up among them).
    named_digit: bool,
    /// Packed names of named registers (`RZ`, `PT`) -> index in `named`.
    named_index: Table,
    /// Each named register's [`RegName`], and the classes that name it (a bit per class).
    named: Box<[(RegName, u32)]>,
    /// A mnemonic with its dotted parts, as the disassembler writes it
    /// (`IDP.4A.U8.S8`, packed in two numbers) -> its index in `ranges`.
    tokens: Table<Key32>,
    /// Per token, its range in `cands`.
    ranges: Box<[(u32, u32)]>,
    /// Per token, the forms whose slots take its parts, in the order
    /// [`assemble`] tries them, with what the parts set.
    cands: Box<[Cand]>,
}

/// A form a whole dotted mnemonic fits, and the bits its modifiers set:
/// the form's word is `mask`ed to `value` after the guard.
#[derive(Clone, Copy)]
struct Cand {
    oc: u32,
    fi: u32,
    mask: u128,
    value: u128,
}

/// A text of at most 32 bytes, packed as two numbers ([`pack_at`]).
type Key32 = (u128, u128);

/// The most dotted mnemonics one form may add to [`Tables::tokens`]
/// (the product of its slots' spellings); a form with more is read part
/// by part.
const MAX_TOKENS_PER_FORM: usize = 4096;

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tables({} forms)", self.forms.len())
    }
}

/// A form's modifier slots.
struct FormTable {
    /// Slots a line must fill (not optional, not [`ModifierKind::Unbound`]).
    mandatory: u64,
    /// The form never matches: more slots than the general path places.
    never: bool,
    /// Where the form's operands start in [`Tables::wants`], and how many.
    wants: (u32, u32),
    /// How many operand texts the form can take, at least and at most (a
    /// float's lanes are several texts: no most then).
    texts: (u8, u8),
    /// No operand is optional: texts are placed in order, with no going back.
    in_order: bool,
    /// In order, and no float: one text per operand, so kinds are checked pairwise.
    pairwise: bool,
}

/// What an operand takes, for [`kinds_fit`]: the kind bits ([`kind`]) of
/// texts it can take, and whether it is optional or a float (which may
/// take several texts, its lanes); and what `decorate` does for a text
/// written bare (no `-`, `|..|`, `!`, `~` nor suffix).
#[derive(Clone, Copy)]
struct Want {
    kinds: u32,
    optional: bool,
    float: bool,
    bare: Bare,
}

/// What `asm::decorate` gives for a bare text: each decoration's field set
/// to its "off" encoding (the bits `mask`ed to `value`), or `None` when
/// the operand needs a suffix. It reads nothing else of the word.
#[derive(Clone, Copy)]
struct Bare(Option<(u128, u128)>);

impl Bare {
    fn new(sop: &Operand) -> Bare {
        let t = OperandText { neg: false, not: false, inv: false, abs: false, core: Core::Name(""), suffix: None };
        match (decorate(sop, &t, false, 0), decorate(sop, &t, false, !0)) {
            (Ok(zeros), Ok(ones)) => {
                let mask = !(zeros ^ ones);
                Bare(Some((mask, zeros & mask)))
            }
            _ => Bare(None),
        }
    }
}

/// The slots of a form that take one spelling.
#[derive(Clone, Copy)]
struct Fit {
    /// A bit per slot.
    slots: u64,
    /// Where in [`Tables::acts`] the slots' acts start.
    acts: u32,
}

impl Fit {
    /// What filling slot `s` (one of `slots`) with the spelling does.
    #[inline]
    fn act(self, t: &Tables, s: u32) -> Act {
        t.acts[self.acts as usize + (self.slots & ((1u64 << s) - 1)).count_ones() as usize]
    }
}

#[derive(Clone, Copy)]
enum Act {
    /// A fixed part of the mnemonic, or an unbound slot's default.
    Nothing,
    /// Sets the field.
    Set(Bits, u64),
    /// An unbound slot's other spellings: the form fails.
    Fail,
}


const EMPTY: u32 = u32::MAX;

/// A key of a [`Table`]: a packed text.
trait Key: Copy + Default + PartialEq {
    /// The key's slot, from the top `64 - shift` bits of its hash.
    fn slot(self, shift: u32) -> usize;
}

impl Key for u128 {
    #[inline(always)]
    fn slot(self, shift: u32) -> usize {
        hash(self, shift)
    }
}

impl Key for Key32 {
    #[inline(always)]
    fn slot(self, shift: u32) -> usize {
        hash(self.0 ^ self.1.rotate_left(17), shift)
    }
}

/// An open-addressing hash table from packed texts (at most 16 bytes, or
/// 32 as a [`Key32`]) to numbers.
struct Table<K = u128> {
    shift: u32,
    slots: Box<[(K, u32)]>,
}

impl<K: Key> Table<K> {
    /// The table of `items`; the first of equal keys wins.
    fn new(items: &[(K, u32)]) -> Table<K> {
        let bits = (items.len() * 2).next_power_of_two().trailing_zeros().max(4);
        let mut slots = vec![(K::default(), EMPTY); 1 << bits].into_boxed_slice();
        let shift = 64 - bits;
        let mask = slots.len() - 1;
        for &(k, v) in items {
            let mut h = k.slot(shift);
            while slots[h].1 != EMPTY && slots[h].0 != k {
                h = (h + 1) & mask;
            }
            if slots[h].1 == EMPTY {
                slots[h] = (k, v);
            }
        }
        Table { shift, slots }
    }

    #[inline]
    fn get(&self, k: K) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut h = k.slot(self.shift);
        loop {
            let (key, v) = self.slots[h];
            if v == EMPTY {
                return None;
            }
            if key == k {
                return Some(v);
            }
            h = (h + 1) & mask;
        }
    }
}

#[inline(always)]
fn hash(k: u128, shift: u32) -> usize {
    let x = (k as u64) ^ ((k >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (x.wrapping_mul(0xD6E8_FEB8_6659_FD93) >> shift) as usize
}

/// `b[s..s + len]` (`1 <= len <= 16`, within `b`) as a little-endian
/// number, zero-padded: distinct texts without NUL bytes pack to distinct
/// numbers. One unaligned load (of the last 16 bytes near the end).
#[inline(always)]
fn pack_at(b: &[u8], s: usize, len: usize) -> u128 {
    let load = |at: usize| u128::from_le_bytes(b[at..at + 16].try_into().unwrap_or_default());
    let word = if s + 16 <= b.len() {
        load(s)
    } else if b.len() >= 16 {
        load(b.len() - 16) >> (8 * (s + 16 - b.len()))
    } else {
        b[s..s + len].iter().rev().fold(0u128, |w, &c| w << 8 | c as u128)
    };
    let mask = |n: usize| if n >= 8 { u64::MAX } else { (1u64 << (8 * n)) - 1 };
    let (lo, hi) = (word as u64, (word >> 64) as u64);
    let (lo, hi) = if len >= 8 { (lo, hi & mask(len - 8)) } else { (lo & mask(len), 0) };
    (hi as u128) << 64 | lo as u128
}

/// `b[s..s + len]` (`1 <= len <= 8`, within `b`) packed as [`pack_at`]
/// packs it: one 8-byte load when the line has 8 bytes from `s`.
#[inline(always)]
fn pack8_at(b: &[u8], s: usize, len: usize) -> u64 {
    match b.get(s..s + 8) {
        Some(w) => u64::from_le_bytes(w.try_into().unwrap_or_default()) & (u64::MAX >> (64 - 8 * len)),
        None => b[s..s + len].iter().rev().fold(0u64, |w, &c| w << 8 | c as u64),
    }
}

/// A model text packed, when it has 1 to 16 bytes.
fn pack(s: &str) -> Option<u128> {
    (1..=16).contains(&s.len()).then(|| pack_at(s.as_bytes(), 0, s.len()))
}

impl Tables {
    /// The tables of model `m`.
    pub fn new(m: &Model) -> Tables {
        let names: Vec<(u128, u32)> = m.mnemonics.iter().enumerate().filter_map(|(k, x)| Some((pack(x.name)?, k as u32))).collect();
        // Number every spelling a slot takes.
        let mut spelled: Vec<(u128, u32)> = Vec::new();
        let mut index: std::collections::HashMap<u128, u32> = std::collections::HashMap::new();
        let mut number = |s: &str| -> Option<u32> {
            let k = pack(s)?;
            Some(*index.entry(k).or_insert_with(|| {
                spelled.push((k, spelled.len() as u32));
                spelled.len() as u32 - 1
            }))
        };
        let mut first_form = Vec::with_capacity(m.opcodes.len());
        let mut forms = Vec::new();
        let (mut fit_keys, mut fits, mut acts, mut wants) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for op in m.opcodes {
            first_form.push(forms.len() as u32);
            for form in op.forms {
                // (spelling, slot, act) for every spelling each slot takes.
                let mut takes: Vec<(u32, u32, Act)> = Vec::new();
                let mut mandatory = 0u64;
                for (slot, x) in form.modifiers.iter().enumerate().take(MAX_SLOTS) {
                    let slot = slot as u32;
                    let mut take = |s: &str, act: Act| {
                        if let Some(spelling) = number(s) {
                            // The first value of a spelling is the one the general path sets.
                            if !takes.iter().any(|t| t.0 == spelling && t.1 == slot) {
                                takes.push((spelling, slot, act));
                            }
                        }
                    };
                    match &x.kind {
                        ModifierKind::Mnemonic(t) => take(t, Act::Nothing),
                        ModifierKind::Value { field, spelling, value, .. } => take(spelling, Act::Set(field.bits, *value)),
                        ModifierKind::Choice { field, values, .. } => values.iter().for_each(|&(s, v)| take(s, Act::Set(field.bits, v))),
                        ModifierKind::Unbound { text, accepts, default } => {
                            for s in std::iter::once(text).chain(accepts.iter()) {
                                take(s, if *default == Some(*s) { Act::Nothing } else { Act::Fail });
                            }
                        }
                        ModifierKind::Broken => {}
                    }
                    if !x.optional && !matches!(x.kind, ModifierKind::Unbound { .. }) {
                        mandatory |= 1 << slot;
                    }
                }
                takes.sort_by_key(|t| (t.0, t.1));
                for same in takes.chunk_by(|a, b| a.0 == b.0) {
                    fit_keys.push(((forms.len() as u128) << 32 | same[0].0 as u128, fits.len() as u32));
                    fits.push(Fit { slots: same.iter().fold(0, |m, t| m | 1 << t.1), acts: acts.len() as u32 });
                    acts.extend(same.iter().map(|t| t.2));
                }
                let start = wants.len() as u32;
                wants.extend(form.operands.iter().map(|o| Want {
                    kinds: match o.kind {
                        OperandKind::Register { class, .. } => class_bit(class),
                        OperandKind::Int { .. } | OperandKind::Float { .. } => NUMBER_TEXT,
                        OperandKind::ConstMem { .. } => CMEM_TEXT,
                        OperandKind::Literal => NAME_TEXT,
                        _ => 0,
                    },
                    optional: o.optional,
                    float: matches!(o.kind, OperandKind::Float { .. }),
                    bare: Bare::new(o),
                }));
                let wants = (start, form.operands.len() as u32);
                let least = form.operands.iter().filter(|o| !o.optional).count().min(255) as u8;
                let most = if form.operands.iter().any(|o| matches!(o.kind, OperandKind::Float { .. })) { u8::MAX } else { form.operands.len().min(255) as u8 };
                forms.push(FormTable { mandatory, never: form.modifiers.len() > MAX_SLOTS, wants, texts: (least, most), in_order: form.operands.iter().all(|o| !o.optional), pairwise: most == least && most != u8::MAX });
            }
        }
        // Each prefix `p` must read as itself in `p0`: then a name of
        // letters `p` and digits is `p` and a number.
        let letters = m.prefixes.iter().all(|&(p, c)| {
            !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphabetic()) && {
                let r = RegName::new(m, &format!("{p}0"));
                r.class == Some(c) && r.number == Some(0)
            }
        });
        let prefixes: Option<Box<[(u64, u16)]>> = m.prefixes.iter().map(|&(p, c)| Some((pack(p).filter(|_| p.len() <= 8)? as u64, c))).collect();
        let named: Vec<&str> = m.registers.iter().flat_map(|c| c.constants.iter().map(|&(n, _)| n)).collect();
        let named_keys: Vec<(u128, u32)> = named.iter().enumerate().filter_map(|(k, n)| Some((pack(n)?, k as u32))).collect();
        let mut tables = Tables {
            prefixes: prefixes.filter(|_| letters),
            named_digit: named.iter().any(|n| n.bytes().last().is_some_and(|b| b.is_ascii_digit())),
            named_index: Table::new(&named_keys),
            named: named.iter().map(|n| {
                let classes = m.registers.iter().enumerate().filter(|(_, c)| c.constants.iter().any(|(x, _)| x == n)).fold(0u32, |k, (i, _)| k | 1u32.checked_shl(i as u32).unwrap_or(0));
                (RegName::new(m, n), classes)
            }).collect(),
            mnemonics: Table::new(&names),
            spellings: Table::new(&spelled),
            first_form: first_form.into(),
            forms: forms.into(),
            fit_index: Table::new(&fit_keys),
            fits: fits.into(),
            acts: acts.into(),
            wants: wants.into(),
            tokens: Table::new(&[]),
            ranges: Box::new([]),
            cands: Box::new([]),
        };
        tables.add_tokens(m);
        tables
    }

    /// Fills [`Tables::tokens`]: each dotted mnemonic a form spells (slots
    /// in template order, as the disassembler writes them), with the forms
    /// of its mnemonic whose slots take its parts, found as [`try_form`]
    /// finds them.
    fn add_tokens(&mut self, m: &Model) {
        let mut texts: std::collections::BTreeSet<(u32, String)> = std::collections::BTreeSet::new();
        for (k, x) in m.mnemonics.iter().enumerate() {
            for &(oc, fi) in x.forms {
                let form = &m.opcodes[oc as usize].forms[fi as usize];
                // Each slot's spellings, `None` where it may be left out.
                let choices: Vec<Vec<Option<&str>>> = form
                    .modifiers
                    .iter()
                    .take(MAX_SLOTS)
                    .map(|x| {
                        let mut c: Vec<Option<&str>> = match &x.kind {
                            ModifierKind::Mnemonic(t) => vec![Some(*t)],
                            ModifierKind::Value { spelling, .. } => vec![Some(*spelling)],
                            ModifierKind::Choice { values, .. } => values.iter().map(|(s, _)| Some(*s)).collect(),
                            ModifierKind::Unbound { default, .. } => vec![*default],
                            ModifierKind::Broken => vec![],
                        };
                        if x.optional || !matches!(x.kind, ModifierKind::Mnemonic(_) | ModifierKind::Value { .. } | ModifierKind::Choice { .. }) {
                            c.push(None);
                        }
                        c
                    })
                    .collect();
                if choices.iter().try_fold(1usize, |n, c| n.checked_mul(c.len()).filter(|&n| n <= MAX_TOKENS_PER_FORM)).is_none() {
                    continue;
                }
                let mut spelled = vec![x.name.to_string()];
                for c in &choices {
                    spelled = spelled.iter().flat_map(|t| c.iter().map(move |p| p.map_or_else(|| t.clone(), |p| format!("{t}.{p}")))).collect();
                }
                texts.extend(spelled.into_iter().map(|t| (k as u32, t)));
            }
        }
        let (mut keys, mut ranges, mut cands) = (Vec::new(), Vec::new(), Vec::new());
        for (k, text) in texts {
            // Only what [`scan`] reads part by part: words of at most 16 bytes, at most MAX_PARTS parts.
            let mut words = text.split('.');
            let name = words.next().unwrap_or_default();
            let parts: Option<Vec<u32>> = words.map(|p| p.bytes().all(|c| is(c, WORD)).then(|| self.spellings.get(pack(p)?)).flatten()).collect();
            let Some(parts) = parts.filter(|p| p.len() <= MAX_PARTS) else { continue };
            if text.len() > 32 || name.is_empty() || name.len() > 16 || !name.bytes().all(|c| is(c, WORD)) || self.mnemonics.get(pack(name).unwrap_or(0)) != Some(k) {
                continue;
            }
            let start = cands.len() as u32;
            for &(oc, fi) in m.mnemonics[k as usize].forms {
                let f = self.first_form[oc as usize] as usize + fi as usize;
                // Set on a word of zeros and one of ones: the bits the parts set agree.
                let (Some(zeros), Some(ones)) = (self.modifiers(f, &parts, 0), self.modifiers(f, &parts, !0)) else { continue };
                let mask = !(zeros ^ ones);
                cands.push(Cand { oc: oc as u32, fi: fi as u32, mask, value: zeros & mask });
            }
            let b = text.as_bytes();
            let key = (pack_at(b, 0, b.len().min(16)), if b.len() > 16 { pack_at(b, 16, b.len() - 16) } else { 0 });
            keys.push((key, ranges.len() as u32));
            ranges.push((start, cands.len() as u32));
        }
        self.tokens = Table::new(&keys);
        self.ranges = ranges.into();
        self.cands = cands.into();
    }

    /// Modifier parts (spelling numbers) into the slots of form `f`, each
    /// into the first free slot that takes it, at or after the last one
    /// filled, else from the first slot; then what each slot sets, on `w`.
    /// `None` when a part fits no free slot, a mandatory slot is left
    /// empty or a slot refuses the spelling.
    #[inline]
    fn modifiers(&self, f: usize, parts: &[u32], mut w: u128) -> Option<u128> {
        let ft = &self.forms[f];
        if ft.never {
            return None;
        }
        let mut filled = 0u64;
        let mut by_slot = [Fit { slots: 0, acts: 0 }; MAX_SLOTS];
        let mut last = 0u32;
        for &id in parts {
            let fit = self.fits[self.fit_index.get((f as u128) << 32 | id as u128)? as usize];
            let free = fit.slots & !filled;
            let after = free & (!0u64 << last);
            let s = if after != 0 { after.trailing_zeros() } else if free != 0 { free.trailing_zeros() } else { return None };
            filled |= 1 << s;
            by_slot[s as usize] = fit;
            last = s + 1;
        }
        if ft.mandatory & !filled != 0 {
            return None;
        }
        let mut rest = filled;
        while rest != 0 {
            let s = rest.trailing_zeros();
            rest &= rest - 1;
            match by_slot[s as usize].act(self, s) {
                Act::Nothing => {}
                Act::Set(bits, v) => w = bits.set(w, v),
                Act::Fail => return None,
            }
        }
        Some(w)
    }
}

/// A line read by [`scan`].
#[derive(Default)]
struct Scanned<'a> {
    guard: Option<(bool, Tok<'a>)>,
    mnemonic: u32,
    /// Spelling numbers of the dotted parts.
    parts: List<u32, MAX_PARTS>,
    /// The forms the whole dotted mnemonic fits, when it is one of
    /// [`Tables::tokens`] (then `mnemonic` and `parts` are not read).
    cands: Option<(u32, u32)>,
    pre: List<Pre<'a>, MAX_OPERANDS>,
    /// Each control's index in [`Model::controls`] (`None`: no such control)
    /// and value (`None`: not a number).
    controls: List<(Option<u16>, Option<u64>), MAX_CONTROLS>,
    /// What the guard's name spells as a register.
    guard_name: RegName,
}

/// Byte classes: bits of [`CLASS`].
const WORD: u8 = 1;
const ALPHA: u8 = 2;
const DIGIT: u8 = 4;
/// What a number's text may hold: a word character, `.`, `+`, `-`.
const NUMBER: u8 = 8;
/// `.`, which joins a mnemonic's parts.
const DOT: u8 = 16;

static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        let mut k = 0;
        if b.is_ascii_alphanumeric() || b == b'_' {
            k |= WORD | NUMBER;
        }
        if b.is_ascii_alphabetic() {
            k |= ALPHA;
        }
        if b.is_ascii_digit() {
            k |= DIGIT;
        }
        if matches!(b, b'.' | b'+' | b'-') {
            k |= NUMBER;
        }
        if b == b'.' {
            k |= DOT;
        }
        t[c] = k;
        c += 1;
    }
    t
};

#[inline(always)]
fn is(c: u8, class: u8) -> bool {
    CLASS[c as usize] & class != 0
}

/// The end of the run of `class` bytes starting at `i`.
#[inline(always)]
fn run_end(b: &[u8], mut i: usize, class: u8) -> usize {
    while i < b.len() && is(b[i], class) {
        i += 1;
    }
    i
}

/// The end of the word (`[A-Za-z0-9_]*`) starting at `i`.
#[inline(always)]
fn word_end(b: &[u8], i: usize) -> usize {
    run_end(b, i, WORD)
}

#[inline(always)]
fn skip_spaces(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i] == b' ' {
        i += 1;
    }
    i
}

/// Reads a line, or `None` when it is not one the fast path takes.
#[inline]
fn scan<'a>(m: &Model, t: &Tables, line: &'a str, out: &mut Scanned<'a>) -> Option<()> {
    let b = line.as_bytes();
    let mut i = skip_spaces(b, 0);
    if b.get(i) == Some(&b'@') {
        let neg = b.get(i + 1) == Some(&b'!');
        let s = i + 1 + neg as usize;
        i = word_end(b, s);
        if i == s || b.get(i) != Some(&b' ') {
            return None;
        }
        out.guard = Some((neg, Tok { text: &line[s..i], col: s }));
        out.guard_name = match prefixed_register(t, b, s) {
            Some((end, name)) if end == i => name,
            _ => reg_name(m, t, b, s, i, &line[s..i]),
        };
        i = skip_spaces(b, i);
    }
    // The mnemonic and its dotted parts: the whole as one token when the
    // tables spell it, else part by part.
    let s = i;
    let e = run_end(b, s, WORD | DOT);
    if (1..=32).contains(&(e - s)) && (e == b.len() || b[e] == b' ') {
        let n = e - s;
        let key = (pack_at(b, s, n.min(16)), if n > 16 { pack_at(b, s + 16, n - 16) } else { 0 });
        out.cands = t.tokens.get(key).map(|k| t.ranges[k as usize]);
    }
    if out.cands.is_some() {
        i = e;
    } else {
        i = word_end(b, s);
        if i == s || i - s > 16 {
            return None;
        }
        out.mnemonic = t.mnemonics.get(pack_at(b, s, i - s))?;
        while b.get(i) == Some(&b'.') {
            let s = i + 1;
            i = word_end(b, s);
            if i == s || i - s > 16 {
                return None;
            }
            // A spelling no slot takes: no form fits (the general path words it).
            let id = t.spellings.get(pack_at(b, s, i - s))?;
            if !out.parts.push(id) {
                return None;
            }
        }
    }
    if i < b.len() && b[i] != b' ' {
        return None;
    }
    i = skip_spaces(b, i);
    // Operands, split at commas.
    if i < b.len() && b[i] != b'&' {
        loop {
            let s = i;
            let (pre, end) = operand_at(m, t, line, s)?;
            if !out.pre.push(pre) {
                return None;
            }
            i = skip_spaces(b, end);
            match b.get(i) {
                None => break,
                Some(b',') => i = skip_spaces(b, i + 1),
                Some(b'&') if i > end => break,
                Some(_) => return None,
            }
        }
    }
    // Controls: `&name=value`, separated by spaces.
    while i < b.len() {
        if b[i] != b'&' {
            return None;
        }
        let ns = i + 1;
        let ne = word_end(b, ns);
        if ne == ns || b.get(ne) != Some(&b'=') {
            return None;
        }
        let ve = word_end(b, ne + 1);
        if ve == ne + 1 || (ve < b.len() && b[ve] != b' ') {
            return None;
        }
        let name = &line[ns..ne];
        let index = m.controls.iter().position(|n| same(n, name)).map(|k| k as u16);
        // A control given twice: the general path words it.
        if index.is_none() || out.controls.iter().any(|(k, _)| *k == index) {
            return None;
        }
        if !out.controls.push((index, number(&line[ne + 1..ve]))) {
            return None;
        }
        i = skip_spaces(b, ve);
    }
    Some(())
}

/// What [`int`] gives for `s`: `0x` and up to 16 hex digits (as the
/// disassembler writes a control) read here, anything else by [`int`].
#[inline]
fn number(s: &str) -> Option<u64> {
    match s.as_bytes() {
        [b'0', b'x', h @ ..] if (1..=16).contains(&h.len()) => {
            h.iter().try_fold(0u64, |v, &c| Some(v << 4 | (c as char).to_digit(16)? as u64))
        }
        _ => int(s),
    }
}

/// What [`RegName::new`] gives for `name` (`b[s..e]`, a word).
#[inline]
fn reg_name(m: &Model, t: &Tables, b: &[u8], s: usize, e: usize, name: &str) -> RegName {
    let (Some(prefixes), 1..=16) = (&t.prefixes, e - s) else { return RegName::new(m, name) };
    if t.named_digit || !is(b[e - 1], DIGIT) {
        if let Some(k) = t.named_index.get(pack_at(b, s, e - s)) {
            return t.named[k as usize].0;
        }
    }
    let l = run_end(b, s, ALPHA);
    // Letters and digits: a prefix and a number.
    if l > s && l < e && run_end(b, l, DIGIT) == e {
        let key = if l - s <= 8 { pack8_at(b, s, l - s) } else { 0 };
        if let Some(&(_, class)) = prefixes.iter().find(|(p, _)| *p == key) {
            let number = b[l..e].iter().fold(0u64, |n, &d| n.saturating_mul(10).saturating_add((d - b'0') as u64));
            return RegName { class: Some(class), number: Some(number), named: false };
        }
    }
    RegName::new(m, name)
}

/// A register written as a prefix and a decimal number (`R12`, `UR4`) at
/// byte `s`: where the word ends and what [`reg_name`] gives for it, read
/// in one pass; `None` for any other word (letters only, a letter after
/// the digits, an unknown prefix), which [`reg_name`] then reads.
#[inline(always)]
fn prefixed_register(t: &Tables, b: &[u8], s: usize) -> Option<(usize, RegName)> {
    let prefixes = t.prefixes.as_ref()?;
    let l = run_end(b, s, ALPHA);
    let mut e = l;
    let mut number = 0u64;
    while e < b.len() && b[e].is_ascii_digit() && e - l < 19 {
        number = number * 10 + (b[e] - b'0') as u64;
        e += 1;
    }
    // Letters, then 1 to 18 digits, then the end of the word.
    if l == s || l - s > 8 || e == l || e - l > 18 || (e < b.len() && is(b[e], WORD)) || (t.named_digit && t.named_index.get(pack_at(b, s, e - s)).is_some()) {
        return None;
    }
    let key = pack8_at(b, s, l - s);
    let &(_, class) = prefixes.iter().find(|(p, _)| *p == key)?;
    Some((e, RegName { class: Some(class), number: Some(number), named: false }))
}

/// Reads the operand text starting at byte `s` of `line` as the lexer
/// would: its decorations, core and suffix, and where it ends. `None` for
/// anything but a name, a number or `c[..][..]`, decorated without spaces.
#[inline]
fn operand_at<'a>(m: &Model, t: &Tables, line: &'a str, s: usize) -> Option<(Pre<'a>, usize)> {
    let b = line.as_bytes();
    let digit_at = |i: usize| b.get(i).is_some_and(|&c| c.is_ascii_digit() || c == b'.');
    let mut op = OperandText { neg: false, not: false, inv: false, abs: false, core: Core::Name(""), suffix: None };
    let mut i = s;
    loop {
        let flag = match b.get(i) {
            Some(b'!') => &mut op.not,
            Some(b'~') => &mut op.inv,
            Some(b'-') if !digit_at(i + 1) => &mut op.neg,
            _ => break,
        };
        if *flag {
            return None;
        }
        *flag = true;
        i += 1;
    }
    if b.get(i) == Some(&b'-') && op.neg {
        return None;
    }
    if b.get(i) == Some(&b'|') {
        op.abs = true;
        i += 1;
        if matches!(b.get(i), Some(b'!' | b'~')) || (b.get(i) == Some(&b'-') && !digit_at(i + 1)) {
            return None;
        }
    }
    let c = *b.get(i)?;
    let mut name = RegName::default();
    if c.is_ascii_digit() || matches!(c, b'-' | b'+' | b'.') {
        // A number runs to the end of the operand.
        let ns = i;
        i = run_end(b, i, NUMBER);
        op.core = Core::Number(&line[ns..i]);
    } else if c == b'c' && b.get(i + 1) == Some(&b'[') {
        let bs = i + 2;
        let be = word_end(b, bs);
        if b.get(be) != Some(&b']') || b.get(be + 1) != Some(&b'[') {
            return None;
        }
        let os = be + 2;
        let oe = word_end(b, os);
        if b.get(oe) != Some(&b']') {
            return None;
        }
        op.core = Core::CMem { bank: int(&line[bs..be])?, offset: int(&line[os..oe])? };
        i = oe + 1;
    } else if let Some((end, reg)) = prefixed_register(t, b, i) {
        // The common case in one pass: a prefix's letters and a number (`R12`).
        op.core = Core::Name(&line[i..end]);
        name = reg;
        i = end;
    } else if c.is_ascii_alphabetic() || c == b'_' {
        let ns = i;
        i = word_end(b, ns);
        let n = &line[ns..i];
        if b.get(i) == Some(&b'[') {
            // A register pair, `R[4:5]`, read as the lexer reads it.
            let (ls, le) = (i + 1, word_end(b, i + 1));
            let (hs, he) = (le + 1, word_end(b, le + 1));
            if !n.bytes().all(|c| c.is_ascii_alphabetic()) || b.get(le) != Some(&b':') || b.get(he) != Some(&b']') || b.get(he + 1) == Some(&b'.') {
                return None;
            }
            op.core = Core::Pair { prefix: n, lo: register_number(&line[ls..le])?, hi: register_number(&line[hs..he])? };
            i = he + 1;
        } else if super::lex::is_number_word(n) {
            if b.get(i) == Some(&b'.') {
                return None;
            }
            op.core = Core::Number(n);
        } else {
            op.core = Core::Name(n);
            name = reg_name(m, t, b, ns, i, n);
        }
    } else {
        return None;
    }
    // A suffix after a name or constant-memory reference.
    if b.get(i) == Some(&b'.') && !matches!(op.core, Core::Number(_)) {
        let ss = i + 1;
        i = word_end(b, ss);
        if i == ss {
            return None;
        }
        op.suffix = Some(&line[ss..i]);
    }
    if op.abs {
        if b.get(i) != Some(&b'|') {
            return None;
        }
        i += 1;
    }
    if i < b.len() && !matches!(b[i], b',' | b' ') {
        return None;
    }
    Some((Pre { text: Some(op), name }, i))
}

/// Assembles `line` if the fast path can: `None` when it does not read the
/// line or no form takes it (the general path then decides, and words why).
pub fn assemble(m: &Model, line: &str) -> Option<Assembled> {
    let t = m.fast.get_or_init(|| Tables::new(m));
    if let Some(word) = raw_word(line.as_bytes()) {
        return (m.decode)(word).ok().map(|oc| Assembled { opcode: Ok(oc), word });
    }
    let mut l = Scanned::default();
    scan(m, t, line, &mut l)?;
    let guard = l.guard_name;
    let mut kinds = [0u32; MAX_OPERANDS];
    for (k, p) in kinds.iter_mut().zip(l.pre.iter()) {
        *k = kind(t, p);
    }
    let kinds = &kinds[..l.pre.len()];
    let attempt = |oc: usize, fi: usize, mods: Option<(u128, u128)>| {
        let ft = &t.forms[t.first_form[oc] as usize + fi];
        let ((start, len), (least, most)) = (ft.wants, ft.texts);
        if kinds.len() < least as usize || kinds.len() > most as usize {
            return None;
        }
        let wants = &t.wants[start as usize..][..len as usize];
        let fits = if ft.pairwise { wants.iter().zip(kinds).all(|(w, &k)| w.kinds & k != 0) } else { kinds_fit(wants, kinds) };
        if !fits {
            return None;
        }
        let word = try_form(m, t, &l, guard, oc, fi, mods)?;
        (m.check)(oc, word).is_ok().then_some(Assembled { opcode: Ok(oc), word })
    };
    match l.cands {
        Some((from, to)) => t.cands[from as usize..to as usize].iter().find_map(|c| attempt(c.oc as usize, c.fi as usize, Some((c.mask, c.value)))),
        None => m.mnemonics[l.mnemonic as usize].forms.iter().find_map(|&(oc, fi)| attempt(oc as usize, fi as usize, None)),
    }
}

/// The word of a `.word` line as the disassemblers print it (`.word 0x`
/// and 1 to 32 hex digits, spaces around), as `asm::raw_word_value` reads
/// it; `None` for any other line.
#[inline]
fn raw_word(b: &[u8]) -> Option<u128> {
    let i = skip_spaces(b, 0);
    let rest = b.get(i..)?.strip_prefix(b".word ")?;
    let s = skip_spaces(rest, 0);
    let hex = rest[s..].strip_prefix(b"0x").or_else(|| rest[s..].strip_prefix(b"0X"))?;
    let n = hex.iter().position(|&c| !c.is_ascii_hexdigit()).unwrap_or(hex.len());
    if !(1..=32).contains(&n) || skip_spaces(hex, n) != hex.len() {
        return None;
    }
    Some(hex[..n].iter().fold(0u128, |w, &c| w << 4 | (c as char).to_digit(16).unwrap_or(0) as u128))
}

/// Form `fi` of opcode `oc` on a scanned line: what `asm::try_form` gives
/// when it succeeds, `None` when it fails.
#[inline]
fn try_form(m: &Model, t: &Tables, l: &Scanned, guard: RegName, oc: usize, fi: usize, mods: Option<(u128, u128)>) -> Option<u128> {
    let op = &m.opcodes[oc];
    let form = &op.forms[fi];
    let f = t.first_form[oc] as usize + fi;
    let ft = &t.forms[f];
    if ft.never {
        return None;
    }
    let mut w = op.base;
    if let Some((neg, tok)) = l.guard {
        m.guard?;
        let g = op.guard?;
        w = g.reg.bits.set(w, guard.register(m, g.class, g.reg.bits, tok.text)?);
        match g.not {
            Some(f) => w = f.bits.set(w, if neg { f.on } else { f.off }),
            None if neg => return None,
            None => {}
        }
    }
    // Modifiers: found with the token, or placed part by part.
    w = match mods {
        Some((mask, value)) => w & !mask | value,
        None => t.modifiers(f, &l.parts, w)?,
    };
    let wants = &t.wants[ft.wants.0 as usize..][..form.operands.len()];
    w = if ft.in_order {
        let mut x = 0;
        for (sop, want) in form.operands.iter().zip(wants) {
            let (used, next) = take(m, t, sop, want.bare, &l.pre, x, w)?;
            (x, w) = (x + used, next);
        }
        (x == l.pre.len()).then_some(w)?
    } else {
        fit(m, t, form.operands, wants, &l.pre, 0, w)?
    };
    for &(index, value) in l.controls.iter() {
        let value = value?;
        let index = index?;
        let c = op.controls.iter().find(|c| c.index == index)?;
        let bits = c.field.bits;
        w = bits.set(w, Some(value).filter(|v| *v <= bits.max())?);
    }
    if form.unsettable.is_some() {
        return None;
    }
    Some(w)
}

/// Places operand texts `pre[x..]` into operands `ops`, an optional one
/// present first, then absent: `asm::place` when it succeeds.
fn fit(m: &Model, t: &Tables, ops: &[Operand], wants: &[Want], pre: &[Pre], x: usize, w: u128) -> Option<u128> {
    let Some((sop, rest)) = ops.split_first() else { return (x == pre.len()).then_some(w) };
    if x < pre.len() {
        if let Some(done) = take(m, t, sop, wants[0].bare, pre, x, w).and_then(|(used, w)| fit(m, t, rest, &wants[1..], pre, x + used, w)) {
            return Some(done);
        }
    }
    if sop.optional {
        return fit(m, t, rest, &wants[1..], pre, x, w);
    }
    None
}

/// Operand `sop` takes text `pre[x]` (and the lanes after it): how many
/// texts it used and the word, as `asm::operand` when it succeeds. The
/// fast path reads no register pair or indexed register, so those cores
/// never come here.
#[inline]
fn take(m: &Model, tables: &Tables, sop: &Operand, bare: Bare, pre: &[Pre], x: usize, mut w: u128) -> Option<(usize, u128)> {
    let p = pre.get(x)?;
    let t = p.text.as_ref()?;
    debug_assert!(!matches!(t.core, Core::Indexed { .. }));
    let mut used = 1;
    let mut literal_sign = false;
    match &sop.kind {
        OperandKind::Literal => {
            let bare = !(t.neg || t.abs || t.not || t.inv) && t.suffix.is_none();
            return (bare && t.core == Core::Name(sop.name)).then_some((1, w));
        }
        OperandKind::Register { bits, class, pair } => {
            let v = match t.core {
                Core::Name(n) => p.name.register(m, *class, *bits, n)?,
                Core::Pair { prefix, lo, hi } => {
                    if prefix != m.registers.get(*class as usize)?.prefix || Some(hi) != lo.checked_add(1) || pair.map(|e| e.eval(w)) != Some(64) {
                        return None;
                    }
                    pair_register(m, tables, *class, *bits, prefix, hi)?;
                    pair_register(m, tables, *class, *bits, prefix, lo)?
                }
                _ => return None,
            };
            w = bits.set(w, v);
        }
        OperandKind::Int { bits, signed: is_signed } => {
            let Core::Number(s) = t.core else { return None };
            let v = signed(s)?;
            literal_sign = t.neg;
            w = bits.set(w, int_value(*bits, *is_signed, if t.neg { -v } else { v })?);
        }
        OperandKind::Float { bits, format, lanes, select } => {
            if !matches!(t.core, Core::Number(_)) {
                return None;
            }
            let (fmt, lanes) = float_shape(*bits, *format, *lanes, *select, w);
            let mut v = 0u64;
            for lane in 0..lanes {
                let lt = pre.get(x + lane as usize)?.text.as_ref()?;
                let Core::Number(s) = lt.core else { return None };
                if lane > 0 && lt.lane_decoration_error().is_some() {
                    return None;
                }
                let b = parse_float(s, fmt).ok()?;
                v |= lane_bits(b, lt.neg, fmt, lane, lanes);
            }
            used = lanes as usize;
            literal_sign = t.neg;
            w = bits.set(w, v);
        }
        OperandKind::ConstMem { bits, bank, offset } => {
            let Core::CMem { bank: b, offset: o } = t.core else { return None };
            if b > bank.max() || o > offset.max() {
                return None;
            }
            w = bits.set(w, b << bank.start | o << offset.start);
        }
        OperandKind::Indexed { .. } | OperandKind::Enum | OperandKind::Unbound | OperandKind::Broken(_) => return None,
    }
    if !(t.neg || t.abs || t.not || t.inv) && t.suffix.is_none() {
        let (mask, value) = bare.0?;
        return Some((used, w & !mask | value));
    }
    Some((used, decorate(sop, t, literal_sign, w).ok()?))
}

/// Register `{prefix}{number}` of `class` (one of a pair), as `asm::register`
/// gives it: read as [`prefixed_register`] reads a name when the tables
/// allow, else by the name.
fn pair_register(m: &Model, t: &Tables, class: u16, bits: Bits, prefix: &str, number: u64) -> Option<u64> {
    let key = pack(prefix).filter(|_| prefix.len() <= 8).map(|k| k as u64);
    match (&t.prefixes, key) {
        (Some(prefixes), Some(key)) if !t.named_digit => {
            let &(_, c) = prefixes.iter().find(|(p, _)| *p == key)?;
            (c == class && number <= bits.max()).then_some(number)
        }
        _ => super::asm::register(m, class, bits, &format!("{prefix}{number}")),
    }
}

/// Kind bits of an operand text ([`kind`]): a bit per register class the
/// text can name (low bits), then what else it is.
const NUMBER_TEXT: u32 = 1 << 31;
const CMEM_TEXT: u32 = 1 << 30;
const NAME_TEXT: u32 = 1 << 29;
/// Register classes past this many are not told apart (any class may take the name).
const CLASSES: u32 = 29;

/// What an operand text can be, for [`kinds_fit`]: a number, a
/// constant-memory reference, or a name, with the classes whose register
/// it can name (its prefix's class with a number, classes naming it).
#[inline]
fn kind(t: &Tables, p: &Pre) -> u32 {
    match p.text.as_ref().map(|t| &t.core) {
        Some(Core::Number(_)) => NUMBER_TEXT,
        Some(Core::CMem { .. }) => CMEM_TEXT,
        Some(Core::Name(n)) => {
            let mut k = NAME_TEXT;
            if let Some(c) = p.name.class.filter(|_| p.name.number.is_some()) {
                k |= class_bit(c);
            }
            if p.name.named {
                k |= match pack(n).and_then(|key| t.named_index.get(key)) {
                    Some(i) => t.named[i as usize].1,
                    None => (1 << CLASSES) - 1,
                };
            }
            k
        }
        _ => u32::MAX,
    }
}

#[inline(always)]
fn class_bit(c: u16) -> u32 {
    if (c as u32) < CLASSES {
        1 << c
    } else {
        (1 << CLASSES) - 1
    }
}

/// Whether operands `ops` can take texts of kinds `kinds`, judged by kind
/// alone: `false` only when [`fit`] must fail (as `asm::may_fit`).
fn kinds_fit(ops: &[Want], kinds: &[u32]) -> bool {
    let mut x = 0;
    for (k, o) in ops.iter().enumerate() {
        let fits = kinds.get(x).is_some_and(|&t| t & o.kinds != 0);
        // A float may take several texts (its lanes): [`fit`] decides.
        if o.float && (fits || x == kinds.len()) {
            return true;
        }
        if o.optional {
            return (fits && kinds_fit(&ops[k + 1..], &kinds[x + 1..])) || kinds_fit(&ops[k + 1..], &kinds[x..]);
        }
        if !fits {
            return false;
        }
        x += 1;
    }
    x == kinds.len()
}
