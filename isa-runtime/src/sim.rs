//! The machine the generated `execute` functions run on: one warp of
//! [`LANES`] lanes, its register files, constant memory and active mask.
//! Which register files exist comes from the spec (the generated crate's
//! `sim::FILES`, one [`FileSpec`] per register type), so nothing here names an
//! ISA register. Per-lane files are stored register-major (`data[reg * 32 +
//! lane]`): a warp instruction touches 32 consecutive words per operand.
//!
//! Rules every file follows: a register index past the file reads 0 (a 64-bit
//! pair starting at the last register reads the zero register's 0 as its high
//! half) and writes to it are dropped; the file's named constants (`RZ`, `PT`)
//! always read their constant value (0 for registers, true for predicates) and
//! writes to them are dropped.
//!
//! Also here, for the generated code: [`FileRegister`] (a register type's
//! file and number, so a warp is read typed: [`Warp::read`]) and
//! [`RegRange`]/[`Registers`] (what an instruction's `InList`/`OutList` name,
//! as the generated `registers()` gives them).

use std::fmt;

/// Lanes per warp.
pub const LANES: usize = 32;

/// A register file as the spec declares it (`__DefOperandType Reg<8> : Register`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileSpec {
    /// The type's name (`Reg`).
    pub name: &'static str,
    /// Assembly prefix (`R`).
    pub prefix: &'static str,
    /// Number of registers (2^width of the type).
    pub count: u32,
    /// A predicate file (values are booleans, constants read true).
    pub predicate: bool,
    /// One copy per warp (`Scope = Warp;`) rather than per lane.
    pub warp: bool,
    /// The named constants: each name and its index (`("RZ", 255)`).
    pub constants: &'static [(&'static str, u32)],
}

impl FileSpec {
    /// The value a constant register reads.
    fn constant_value(&self) -> u32 {
        self.predicate as u32
    }
    /// Whether `idx` is one of the file's constants.
    #[inline]
    pub fn is_constant(&self, idx: u32) -> bool {
        self.constants.iter().any(|c| c.1 == idx)
    }
    /// Whether `idx` names a register that holds state.
    #[inline]
    pub fn is_writable(&self, idx: u32) -> bool {
        idx < self.count && !self.is_constant(idx)
    }
    /// Assembly name of register `idx` (`R3`, `RZ`).
    pub fn register_name(&self, idx: u32) -> String {
        match self.constants.iter().find(|c| c.1 == idx) {
            Some(c) => c.0.to_string(),
            None => format!("{}{idx}", self.prefix),
        }
    }
}

/// An instruction that cannot execute: an indexed register (`R[UR2+0x10]`)
/// outside its file, a constant-memory operand that is not a word's address
/// in range ([`ConstBanks::load`]), or an opcode the spec gives no
/// simulation hook. The generated `execute` checks every lane before it
/// writes, so a fault leaves the warp as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// The name of the opcode that faulted (`SETGPR_U`).
    pub opcode: &'static str,
    /// The lane that faulted, when one did.
    pub lane: Option<u32>,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.lane {
            Some(l) => write!(f, "{} faults on lane {l}: {}", self.opcode, self.message),
            None => write!(f, "{} faults: {}", self.opcode, self.message),
        }
    }
}

impl std::error::Error for Fault {}

/// Constant memory: banks of bytes, read as little-endian words at any byte
/// offset; unwritten bytes read 0. At most [`ConstBanks::MAX_BANKS`] banks of
/// [`ConstBanks::MAX_BANK_BYTES`] bytes can be written (far more than an
/// instruction's bank and offset fields address).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConstBanks {
    banks: Vec<Vec<u8>>,
}

/// A constant-memory write outside what [`ConstBanks`] stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CMemRangeError {
    /// The bank written.
    pub bank: u64,
    /// The byte offset written.
    pub offset: u64,
}

impl fmt::Display for CMemRangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "c[{:#x}][{:#x}] is outside constant memory (at most {} banks of {:#x} bytes)",
            self.bank,
            self.offset,
            ConstBanks::MAX_BANKS,
            ConstBanks::MAX_BANK_BYTES
        )
    }
}

impl std::error::Error for CMemRangeError {}

impl ConstBanks {
    /// The 32-bit word at byte `offset` of `bank`.
    #[inline]
    pub fn read(&self, bank: u64, offset: u64) -> u32 {
        let Some(b) = self.banks.get(bank as usize) else { return 0 };
        let mut bytes = [0u8; 4];
        for (i, byte) in bytes.iter_mut().enumerate() {
            *byte = (offset as usize).checked_add(i).and_then(|at| b.get(at)).copied().unwrap_or(0);
        }
        u32::from_le_bytes(bytes)
    }
    /// The 32-bit word `opcode` reads at byte `offset` of `bank`:
    /// [`Self::read`], or the instruction's [`Fault`] when the address is
    /// no word's (not a multiple of 4, or past [`Self::MAX_BANKS`] or
    /// [`Self::MAX_BANK_BYTES`]). Bytes never written read as zero.
    #[inline]
    pub fn load(&self, opcode: &'static str, bank: u64, offset: u64) -> Result<u32, Fault> {
        let message = if !offset.is_multiple_of(4) {
            format!("c[{bank:#x}][{offset:#x}] is not a word's address: a 32-bit constant is read at a multiple of 4")
        } else if bank >= Self::MAX_BANKS || offset.checked_add(4).is_none_or(|end| end > Self::MAX_BANK_BYTES) {
            CMemRangeError { bank, offset }.to_string()
        } else {
            return Ok(self.read(bank, offset));
        };
        Err(Fault { opcode, lane: None, message })
    }
    /// The 64-bit constant `opcode` reads at byte `offset` of `bank`, low
    /// word first: two [`Self::load`]s, and a [`Fault`] when the high word
    /// lies at or past byte `limit`, the end of the offsets the ISA's
    /// constant operand can name (the last word's 64-bit read would take a
    /// word no address names; it read as zero).
    #[inline]
    pub fn load64(&self, opcode: &'static str, bank: u64, offset: u64, limit: u64) -> Result<u64, Fault> {
        let lo = self.load(opcode, bank, offset)?;
        if offset.checked_add(8).is_none_or(|end| end > limit) {
            let message = format!("c[{bank:#x}][{offset:#x}] holds no 64-bit constant: its high word would be at {:#x}, past the last word the operand can name, {:#x}", offset.saturating_add(4), limit.saturating_sub(4));
            return Err(Fault { opcode, lane: None, message });
        }
        Ok(lo as u64 | (self.load(opcode, bank, offset + 4)? as u64) << 32)
    }
    /// Most banks a warp's constant memory holds.
    pub const MAX_BANKS: u64 = 1 << 8;
    /// Most bytes one bank holds.
    pub const MAX_BANK_BYTES: u64 = 1 << 24;

    /// Stores a 32-bit word at byte `offset` of `bank`; an error (nothing
    /// written) past [`Self::MAX_BANKS`] or [`Self::MAX_BANK_BYTES`].
    pub fn write(&mut self, bank: u64, offset: u64, value: u32) -> Result<(), CMemRangeError> {
        if bank >= Self::MAX_BANKS || offset.checked_add(4).is_none_or(|end| end > Self::MAX_BANK_BYTES) {
            return Err(CMemRangeError { bank, offset });
        }
        let (bank, offset) = (bank as usize, offset as usize);
        if self.banks.len() <= bank {
            self.banks.resize(bank + 1, Vec::new());
        }
        let b = &mut self.banks[bank];
        if b.len() < offset + 4 {
            b.resize(offset + 4, 0);
        }
        b[offset..offset + 4].copy_from_slice(&value.to_le_bytes());
        Ok(())
    }
    /// Every non-zero aligned word: `(bank, offset, value)`.
    pub fn words(&self) -> Vec<(u64, u64, u32)> {
        let mut out = Vec::new();
        for (bank, b) in self.banks.iter().enumerate() {
            for offset in (0..b.len()).step_by(4) {
                let v = self.read(bank as u64, offset as u64);
                if v != 0 {
                    out.push((bank as u64, offset as u64, v));
                }
            }
        }
        out
    }
}

/// A run of registers an instruction reads or writes, as its spec's
/// `InList` / `OutList` name them: `count` registers of file `file` (an
/// index into the ISA's `sim::FILES`) from `first`. A 64-bit operand is a
/// pair (`R[4:5]`: `first` 4, `count` 2); a literal operand that stands for
/// a whole file (`PR`) and an indexed one named in a list (`R[urb, ridx]`,
/// whose register is known only when it runs) are the whole file. A run may reach past the
/// file's end (a pair at `RZ`), and named constants (`RZ`, `PT`) are
/// included: [`FileSpec::is_writable`] tells which registers hold state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RegRange {
    /// The register file, an index into the ISA's `sim::FILES`.
    pub file: usize,
    /// The first register.
    pub first: u32,
    /// How many registers, from `first`.
    pub count: u32,
}

impl RegRange {
    /// `count` registers of file `file` from `first`.
    #[inline]
    pub const fn new(file: usize, first: u32, count: u32) -> RegRange {
        RegRange { file, first, count }
    }
    /// Whether register `idx` of file `file` is in the run.
    #[inline]
    pub fn contains(&self, file: usize, idx: u32) -> bool {
        self.file == file && idx.wrapping_sub(self.first) < self.count
    }
}

/// The registers an instruction reads and writes ([`RegRange`]s, in the
/// order its `InList` and `OutList` give them), without allocating: at most
/// `N` runs in all, `N` being the most any opcode of the ISA names (the
/// generated `sim::MAX_REGISTERS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Registers<const N: usize> {
    runs: [RegRange; N],
    reads: usize,
    len: usize,
}

impl<const N: usize> Registers<N> {
    /// The runs `reads`, then `writes`.
    ///
    /// # Panics
    /// When they are more than `N` in all (the generated code never passes more).
    pub fn new(reads: &[RegRange], writes: &[RegRange]) -> Self {
        let mut runs = [RegRange { file: 0, first: 0, count: 0 }; N];
        runs[..reads.len()].copy_from_slice(reads);
        runs[reads.len()..reads.len() + writes.len()].copy_from_slice(writes);
        Registers { runs, reads: reads.len(), len: reads.len() + writes.len() }
    }
    /// The registers read (`InList`), the guard predicate included.
    #[inline]
    pub fn reads(&self) -> &[RegRange] {
        &self.runs[..self.reads]
    }
    /// The registers written (`OutList`).
    #[inline]
    pub fn writes(&self) -> &[RegRange] {
        &self.runs[self.reads..self.len]
    }
    /// Whether the instruction reads register `idx` of file `file`.
    pub fn reads_register(&self, file: usize, idx: u32) -> bool {
        self.reads().iter().any(|r| r.contains(file, idx))
    }
    /// Whether the instruction writes register `idx` of file `file`.
    pub fn writes_register(&self, file: usize, idx: u32) -> bool {
        self.writes().iter().any(|r| r.contains(file, idx))
    }
}

/// One register file's contents.
#[derive(Clone, Debug, PartialEq, Eq)]
struct File {
    spec: &'static FileSpec,
    data: Vec<u32>,
}

/// A register type of an ISA: the file it names and its number there. The
/// generated crate implements it for each register type (`Reg`, `Pred`), so
/// a warp is read and written through them: [`Warp::read`], [`Warp::write`].
pub trait FileRegister: Copy {
    /// Index of the type's file in the ISA's `sim::FILES`.
    const FILE: usize;
    /// The register's number in its file.
    fn number(self) -> u64;
}

/// A warp: register files, constant memory, and the mask of active lanes.
///
/// Registers are read and written by file index and number (`lane`,
/// `set_lane`, `get`, ...), or typed (`read(Reg::new(3)?, lane)`). What the
/// warp does not hold reads 0 and a write to it is dropped, without an error:
/// a file index past the ISA's files, a register number past its file, a
/// lane past [`LANES`], and for a per-warp file (`Scope = Warp;`) any lane
/// but 0 through `lane`/`set_lane` (use `get`/`set`, `warp`/`set_warp`, or
/// `read`/`write`, which take a per-warp register whatever the lane). The
/// file's named constants (`RZ`, `PT`) read their constant and ignore writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warp {
    files: Vec<File>,
    /// Bit i set: lane i executes.
    pub active: u32,
    /// The warp's constant memory.
    pub cmem: ConstBanks,
}

impl Warp {
    /// A warp with every register zero (constants at their values), every lane active.
    pub fn new(files: &'static [FileSpec]) -> Warp {
        let files = files
            .iter()
            .map(|spec| {
                let per = if spec.warp { 1 } else { LANES };
                let mut data = vec![0u32; spec.count as usize * per];
                for &(_, idx) in spec.constants {
                    let at = idx as usize * per;
                    data[at..at + per].fill(spec.constant_value());
                }
                File { spec, data }
            })
            .collect();
        Warp { files, active: u32::MAX, cmem: ConstBanks::default() }
    }

    /// The register files, in the spec's order.
    pub fn file_specs(&self) -> impl Iterator<Item = &'static FileSpec> + '_ {
        self.files.iter().map(|f| f.spec)
    }

    // Register access. A file, register or lane outside the warp reads 0
    // and a write to it is dropped, as a write to a constant register is.

    /// The slot of register `idx` in `lane` of file `file`'s data, if any.
    #[inline]
    fn slot(&self, file: usize, idx: u64, lane: usize) -> Option<usize> {
        let f = self.files.get(file)?;
        let per = if f.spec.warp { 1 } else { LANES };
        (lane < per && idx < f.spec.count as u64).then(|| idx as usize * per + lane)
    }
    /// Register `idx` of per-lane file `file` in `lane`.
    #[inline]
    pub fn lane(&self, file: usize, idx: u64, lane: usize) -> u32 {
        self.slot(file, idx, lane).map_or(0, |at| self.files[file].data[at])
    }
    /// Writes register `idx` of per-lane file `file` in `lane` (dropped for constants).
    #[inline]
    pub fn set_lane(&mut self, file: usize, idx: u64, lane: usize, v: u32) {
        if let Some(at) = self.slot(file, idx, lane) {
            let f = &mut self.files[file];
            if f.spec.is_writable(idx as u32) {
                // A predicate holds 0 or 1, whatever was written.
                f.data[at] = if f.spec.predicate { (v != 0) as u32 } else { v };
            }
        }
    }
    /// Register `idx` of per-warp file `file`.
    #[inline]
    pub fn warp(&self, file: usize, idx: u64) -> u32 {
        self.slot(file, idx, 0).map_or(0, |at| self.files[file].data[at])
    }
    /// Writes register `idx` of per-warp file `file` (dropped for constants).
    #[inline]
    pub fn set_warp(&mut self, file: usize, idx: u64, v: u32) {
        self.set_lane(file, idx, 0, v)
    }
    /// Register `idx` of file `file` in every lane (zeros past the file); a
    /// per-warp register has one value, which every lane sees.
    #[inline]
    pub fn lanes(&self, file: usize, idx: u64) -> [u32; LANES] {
        let Some(f) = self.files.get(file) else { return [0; LANES] };
        if f.spec.warp {
            return [self.warp(file, idx); LANES];
        }
        if idx >= f.spec.count as u64 {
            return [0; LANES];
        }
        let at = idx as usize * LANES;
        match f.data.get(at..at + LANES) {
            Some(s) => s.try_into().unwrap_or([0; LANES]),
            None => [0; LANES],
        }
    }
    /// Writes register `idx` of file `file` in the lanes of `mask` (dropped
    /// for constants). A per-warp register takes the value of the lowest
    /// lane of `mask` (none: it is left alone), as R2UR writes one.
    #[inline]
    pub fn set_lanes(&mut self, file: usize, idx: u64, mask: u32, v: &[u32; LANES]) {
        if self.files.get(file).is_some_and(|f| f.spec.warp) {
            if mask != 0 {
                self.set_warp(file, idx, v[mask.trailing_zeros() as usize]);
            }
            return;
        }
        let Some(f) = self.files.get_mut(file) else { return };
        if idx >= u32::MAX as u64 || !f.spec.is_writable(idx as u32) {
            return;
        }
        let at = idx as usize * LANES;
        // A predicate holds 0 or 1, whatever was written.
        let normal = if f.spec.predicate { v.map(|x| (x != 0) as u32) } else { *v };
        if let Some(dst) = f.data.get_mut(at..at + LANES) {
            // A select per lane, no branch: the loop vectorizes.
            for (lane, (d, x)) in dst.iter_mut().zip(&normal).enumerate() {
                let keep = (mask >> lane & 1).wrapping_sub(1);
                *d = (*d & keep) | (*x & !keep);
            }
        }
    }
    /// Bit i set when register `idx` of file `file` is non-zero in lane i.
    #[inline]
    pub fn lane_mask(&self, file: usize, idx: u64) -> u32 {
        self.lanes(file, idx).iter().enumerate().fold(0, |m, (lane, v)| m | ((*v != 0) as u32) << lane)
    }
    /// The pairs `idx`, `idx + 1` of per-lane file `file` in every lane.
    #[inline]
    pub fn lanes64(&self, file: usize, idx: u64) -> [u64; LANES] {
        let (lo, hi) = (self.lanes(file, idx), self.lanes(file, idx.saturating_add(1)));
        std::array::from_fn(|l| lo[l] as u64 | (hi[l] as u64) << 32)
    }
    /// Writes 64-bit values to the pairs `idx`, `idx + 1` in the lanes of `mask`.
    #[inline]
    pub fn set_lanes64(&mut self, file: usize, idx: u64, mask: u32, v: &[u64; LANES]) {
        self.set_lanes(file, idx, mask, &v.map(|x| x as u32));
        self.set_lanes(file, idx.saturating_add(1), mask, &v.map(|x| (x >> 32) as u32));
    }
    /// Register `r` in `lane` (of either scope): `w.read(Reg::new(3)?, 0)`;
    /// a predicate reads 0 or 1.
    #[inline]
    pub fn read<R: FileRegister>(&self, r: R, lane: usize) -> u32 {
        self.get(R::FILE, r.number(), lane)
    }
    /// Sets register `r` in `lane` (of either scope; a constant such as
    /// `RZ` ignores it): `w.write(Reg::new(3)?, 0, 42)`.
    #[inline]
    pub fn write<R: FileRegister>(&mut self, r: R, lane: usize, v: u32) {
        self.set(R::FILE, r.number(), lane, v)
    }
    /// Reads a register of either scope.
    #[inline]
    pub fn get(&self, file: usize, idx: u64, lane: usize) -> u32 {
        if self.files.get(file).is_some_and(|f| f.spec.warp) {
            self.warp(file, idx)
        } else {
            self.lane(file, idx, lane)
        }
    }
    /// Writes a register of either scope.
    #[inline]
    pub fn set(&mut self, file: usize, idx: u64, lane: usize, v: u32) {
        if self.files.get(file).is_some_and(|f| f.spec.warp) {
            self.set_warp(file, idx, v)
        } else {
            self.set_lane(file, idx, lane, v)
        }
    }
    /// A 64-bit value from the pair `idx`, `idx + 1` (low word first).
    #[inline]
    pub fn get64(&self, file: usize, idx: u64, lane: usize) -> u64 {
        self.get(file, idx, lane) as u64 | (self.get(file, idx.saturating_add(1), lane) as u64) << 32
    }
    /// Writes a 64-bit value to the pair `idx`, `idx + 1`.
    #[inline]
    pub fn set64(&mut self, file: usize, idx: u64, lane: usize, v: u64) {
        self.set(file, idx, lane, v as u32);
        self.set(file, idx.saturating_add(1), lane, (v >> 32) as u32);
    }
    /// Whole file as a bit mask (bit i = register i is non-zero), for the
    /// first 32 registers.
    #[inline]
    pub fn mask(&self, file: usize, lane: usize) -> u32 {
        let n = self.files.get(file).map_or(0, |f| f.spec.count.min(32)) as u64;
        (0..n).fold(0u32, |m, i| m | ((self.get(file, i, lane) != 0) as u32) << i)
    }
    /// Sets every writable register of a file from a bit mask.
    #[inline]
    pub fn set_mask(&mut self, file: usize, lane: usize, mask: u32) {
        let n = self.files.get(file).map_or(0, |f| f.spec.count.min(32)) as u64;
        for i in 0..n {
            self.set(file, i, lane, (mask >> i) & 1);
        }
    }
    /// Register `idx` computed at run time: an error when outside the file.
    #[inline]
    pub fn checked_index(&self, file: usize, idx: i64) -> Result<u64, String> {
        let Some(spec) = self.files.get(file).map(|f| f.spec) else { return Err(format!("no register file {file}")) };
        if (0..spec.count as i64).contains(&idx) {
            Ok(idx as u64)
        } else {
            Err(format!("register index {idx} is outside {}0..{}{}", spec.prefix, spec.prefix, spec.count - 1))
        }
    }
    /// The index of the file whose type is `name`.
    pub fn file_index(&self, name: &str) -> Option<usize> {
        self.files.iter().position(|f| f.spec.name == name)
    }
    /// The file and index an assembly register name denotes (`R3`, `RZ`, `UP0`),
    /// longest prefix first so `UR1` is not read as `U` + `R1`.
    pub fn parse_register(&self, name: &str) -> Option<(usize, u32)> {
        for (i, f) in self.files.iter().enumerate() {
            if let Some(c) = f.spec.constants.iter().find(|c| c.0 == name) {
                return Some((i, c.1));
            }
        }
        let mut best: Option<(usize, u32, usize)> = None;
        for (i, f) in self.files.iter().enumerate() {
            let Some(rest) = name.strip_prefix(f.spec.prefix) else { continue };
            if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) || (rest.len() > 1 && rest.starts_with('0')) {
                continue;
            }
            let Ok(idx) = rest.parse::<u32>() else { continue };
            if idx < f.spec.count && best.is_none_or(|b| f.spec.prefix.len() > b.2) {
                best = Some((i, idx, f.spec.prefix.len()));
            }
        }
        best.map(|(i, idx, _)| (i, idx))
    }
}

/// The lanes whose bit is set in `mask`, lowest first.
#[inline]
pub fn lanes(mask: u32) -> impl Iterator<Item = usize> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(l)
        }
    })
}

/// Sign-extends the low `width` bits of `raw`.
#[inline]
pub fn sign_extend(raw: u64, width: u32) -> i64 {
    let s = 64 - width;
    ((raw << s) as i64) >> s
}

#[cfg(test)]
mod tests {
    use super::*;

    static FILES: [FileSpec; 2] = [
        FileSpec { name: "Reg", prefix: "R", count: 256, predicate: false, warp: false, constants: &[("RZ", 255)] },
        FileSpec { name: "UPred", prefix: "UP", count: 8, predicate: true, warp: true, constants: &[("UPT", 7)] },
    ];

    #[test]
    fn constants_read_their_value_and_ignore_writes() {
        let mut w = Warp::new(&FILES);
        w.set_lane(0, 255, 3, 7);
        assert_eq!(w.lane(0, 255, 3), 0);
        assert_eq!(w.warp(1, 7), 1);
        w.set_warp(1, 7, 0);
        assert_eq!(w.warp(1, 7), 1);
        w.set64(0, 254, 0, u64::MAX);
        assert_eq!(w.get64(0, 254, 0), 0xFFFF_FFFF);
    }

    #[test]
    fn a_per_warp_register_is_one_value_for_every_lane() {
        static WARP: [FileSpec; 1] = [FileSpec { name: "UReg", prefix: "UR", count: 64, predicate: false, warp: true, constants: &[("URZ", 63)] }];
        let mut w = Warp::new(&WARP);
        let v: [u32; LANES] = std::array::from_fn(|l| 100 + l as u32);
        w.set_lanes(0, 5, 0b1100, &v);
        assert_eq!(w.warp(0, 5), 102, "the lowest lane of the mask");
        assert_eq!(w.lanes(0, 5), [102; LANES], "every lane sees it");
        assert_eq!((0..64).filter(|&r| w.warp(0, r) != 0).count(), 1, "no other register written");
        w.set_lanes(0, 6, 0, &v);
        assert_eq!(w.warp(0, 6), 0, "no lane, no write");
        assert_eq!(w.lane_mask(0, 5), u32::MAX);
        w.set_lanes64(0, 8, 1, &[0x1_0000_0002; LANES]);
        assert_eq!(w.lanes64(0, 8), [0x1_0000_0002; LANES]);
    }

    #[test]
    fn names_and_masks() {
        let w = Warp::new(&FILES);
        assert_eq!(w.parse_register("R12"), Some((0, 12)));
        assert_eq!(w.parse_register("RZ"), Some((0, 255)));
        assert_eq!(w.parse_register("UP3"), Some((1, 3)));
        assert_eq!(w.parse_register("R256"), None);
        assert_eq!(w.parse_register("R01"), None);
        assert_eq!(w.mask(1, 0), 0x80);
        assert_eq!(lanes(0b1010_0001).collect::<Vec<_>>(), vec![0, 5, 7]);
        assert_eq!(sign_extend(0x1FF, 9), -1);
        assert!(w.checked_index(0, 256).is_err());
    }

    #[test]
    fn const_banks_read_unaligned_words() {
        let mut c = ConstBanks::default();
        c.write(3, 0x10, 0x4433_2211).unwrap();
        assert_eq!(c.read(3, 0x10), 0x4433_2211);
        assert_eq!(c.read(3, 0x11), 0x0044_3322);
        assert_eq!(c.read(9, 0), 0);
        assert_eq!(c.words(), vec![(3, 0x10, 0x4433_2211)]);
        // Past the limits: an error and nothing written (no panic, no huge allocation).
        for (bank, offset) in [(u64::MAX, 0), (0, u64::MAX - 1), (ConstBanks::MAX_BANKS, 0), (0, ConstBanks::MAX_BANK_BYTES - 3)] {
            assert_eq!(c.write(bank, offset, 1), Err(CMemRangeError { bank, offset }));
        }
        assert_eq!(c.read(0, u64::MAX), 0);
        assert_eq!(c.words(), vec![(3, 0x10, 0x4433_2211)]);
        c.write(ConstBanks::MAX_BANKS - 1, ConstBanks::MAX_BANK_BYTES - 4, 9).unwrap();
        assert_eq!(c.read(ConstBanks::MAX_BANKS - 1, ConstBanks::MAX_BANK_BYTES - 4), 9);
    }

    /// A predicate holds 0 or 1 whatever is written (warps that behave
    /// alike compare equal).
    #[test]
    fn predicates_hold_booleans() {
        let mut w = Warp::new(&FILES);
        w.set_warp(1, 0, 5);
        w.set_lanes(1, 1, 1, &[2; LANES]);
        w.set(1, 2, 9, 0x8000_0000);
        assert_eq!((w.warp(1, 0), w.warp(1, 1), w.warp(1, 2)), (1, 1, 1));
        w.set_warp(1, 0, 0);
        assert_eq!(w.warp(1, 0), 0);
    }

    /// A lane, register or file outside the warp reads 0, and writing it
    /// changes nothing (it used to land in another register, or panic).
    #[test]
    fn accesses_outside_the_warp_are_dropped() {
        let mut w = Warp::new(&FILES);
        let before = w.clone();
        // A per-warp file has one lane (`get`/`set` ignore the lane for it).
        w.set_lane(1, 0, 1, 7);
        assert_eq!(w.lane(1, 0, 1), 0);
        for (file, idx, lane) in [(0, 0, LANES), (0, 254, LANES + 1), (0, 254, 64), (0, 256, 0), (0, u64::MAX, 0), (1, 8, 0), (2, 0, 0), (usize::MAX, 3, 3)] {
            w.set_lane(file, idx, lane, 7);
            w.set(file, idx, lane, 7);
            assert_eq!(w.lane(file, idx, lane), 0, "file {file} R{idx} lane {lane}");
            assert_eq!(w.get(file, idx, lane), 0);
        }
        w.set_lanes(2, 0, u32::MAX, &[1; LANES]);
        w.set_mask(5, 0, u32::MAX);
        // The whole-lane and 64-bit accessors too, at numbers whose offset
        // or successor would overflow (they read and wrote R0 in release).
        for idx in [u64::MAX, u64::MAX - 1, 1 << 59, 1 << 62] {
            w.set_lanes(0, idx, u32::MAX, &[7; LANES]);
            w.set_lanes64(0, idx, u32::MAX, &[7; LANES]);
            w.set64(0, idx, 0, u64::MAX);
            assert_eq!((w.lanes(0, idx), w.lanes64(0, idx), w.get64(0, idx, 0)), ([0; LANES], [0; LANES], 0), "R{idx}");
        }
        assert_eq!(w, before);
        assert_eq!(w.lanes(7, 0), [0; LANES]);
        assert!(w.checked_index(9, 0).is_err());
    }
}
