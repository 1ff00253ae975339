//! What the simulator's tests share: a small deterministic random source.

/// Xorshift64: the same draws on every machine, no dependency.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A binary32 value's bits, weighted to the hard cases: specials,
    /// subnormals, and normals of moderate exponent.
    #[allow(dead_code)] // not every test draws floats
    pub fn float(&mut self) -> u32 {
        let x = self.next();
        match x % 8 {
            0 => [0, 0x8000_0000, 0x7F80_0000, 0xFF80_0000, 0x7FC0_0000, 1, 0x7F7F_FFFF, 0x0080_0000][(x >> 8) as usize % 8],
            1 => (x >> 16) as u32 & 0x807F_FFFF, // subnormal
            _ => (x >> 16) as u32 & 0x807F_FFFF | (((x >> 48) % 40 + 107) as u32) << 23,
        }
    }
}
