//! The world's random number generator: ChaCha8 with our own, version-proof sampling helpers.
//!
//! Sampling is written here (not taken from `rand`'s distributions) so the same seed gives the same
//! world whatever `rand` version is linked: only the ChaCha8 stream itself is relied on. The full
//! generator state (seed, stream, word position) can be saved and restored exactly.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// A seeded ChaCha8 generator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorldRng(ChaCha8Rng);

/// The saved state of a [`WorldRng`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RngState {
    /// The 32-byte ChaCha key, hex.
    pub key: String,
    pub stream: u64,
    /// Position in the stream in 32-bit words (a u128, as a decimal string).
    pub word_pos: String,
}

impl WorldRng {
    /// A generator for a game seed on a given stream (streams give independent sequences).
    pub fn new(seed: u64, stream: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(stream);
        WorldRng(rng)
    }

    /// A uniformly random u32.
    pub fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    /// A uniform f64 in [0, 1) with 53 random bits.
    pub fn unit_f64(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniform f64 in [lo, hi] (hi reached only as a limit).
    pub fn range_f64(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit_f64()
    }

    /// A uniform integer in `lo..=hi` (unbiased, by rejection).
    pub fn range_u32(&mut self, lo: u32, hi: u32) -> u32 {
        assert!(lo <= hi, "empty range {lo}..={hi}");
        let span = u64::from(hi - lo) + 1;
        // Largest multiple of span that fits in 2^32; reject values above it.
        let zone = (1u64 << 32) - ((1u64 << 32) % span);
        loop {
            let v = u64::from(self.next_u32());
            if v < zone {
                return lo + (v % span) as u32;
            }
        }
    }

    /// True with probability `p` (clamped to 0..=1).
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit_f64() < p.clamp(0.0, 1.0)
    }

    /// The exact generator state.
    pub fn state(&self) -> RngState {
        let key = self
            .0
            .get_seed()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        RngState {
            key,
            stream: self.0.get_stream(),
            word_pos: self.0.get_word_pos().to_string(),
        }
    }

    /// Restores a generator from [`WorldRng::state`].
    pub fn from_state(state: &RngState) -> Result<Self, String> {
        let bytes = state.key.as_bytes();
        if bytes.len() != 64 {
            return Err(format!(
                "rng key must be 64 hex digits, got {}",
                bytes.len()
            ));
        }
        let mut key = [0u8; 32];
        for (i, pair) in bytes.chunks(2).enumerate() {
            let text = std::str::from_utf8(pair).map_err(|e| e.to_string())?;
            key[i] =
                u8::from_str_radix(text, 16).map_err(|_| format!("bad rng key digit {text:?}"))?;
        }
        let pos: u128 = state
            .word_pos
            .parse()
            .map_err(|_| format!("bad rng word position {:?}", state.word_pos))?;
        let mut rng = ChaCha8Rng::from_seed(key);
        rng.set_stream(state.stream);
        rng.set_word_pos(pos);
        Ok(WorldRng(rng))
    }
}

impl serde::Serialize for WorldRng {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.state().serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for WorldRng {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let st = RngState::deserialize(d)?;
        WorldRng::from_state(&st).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_round_trip_continues_the_same_sequence() {
        let mut a = WorldRng::new(42, 0);
        for _ in 0..17 {
            a.next_u32();
        }
        let mut b = WorldRng::from_state(&a.state()).unwrap();
        let xs: Vec<u32> = (0..50).map(|_| a.next_u32()).collect();
        let ys: Vec<u32> = (0..50).map(|_| b.next_u32()).collect();
        assert_eq!(xs, ys);
    }

    #[test]
    fn ranges_stay_in_bounds_and_cover_them() {
        let mut r = WorldRng::new(7, 0);
        let mut seen = [false; 5];
        for _ in 0..1000 {
            let v = r.range_u32(3, 7);
            assert!((3..=7).contains(&v));
            seen[(v - 3) as usize] = true;
            let f = r.range_f64(1.5, 2.5);
            assert!((1.5..=2.5).contains(&f));
        }
        assert!(seen.iter().all(|s| *s));
        assert_eq!(r.range_u32(9, 9), 9);
    }

    #[test]
    fn streams_and_seeds_differ() {
        let a: Vec<u32> = (0..8)
            .map({
                let mut r = WorldRng::new(1, 0);
                move |_| r.next_u32()
            })
            .collect();
        let b: Vec<u32> = (0..8)
            .map({
                let mut r = WorldRng::new(1, 1);
                move |_| r.next_u32()
            })
            .collect();
        let c: Vec<u32> = (0..8)
            .map({
                let mut r = WorldRng::new(2, 0);
                move |_| r.next_u32()
            })
            .collect();
        assert_ne!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn corrupt_state_is_rejected() {
        let mut s = WorldRng::new(1, 0).state();
        s.key.truncate(10);
        assert!(WorldRng::from_state(&s).is_err());
    }
}
