//! Entity ids: stable 32-bit values that survive save and load and may be negative, as the
//! contract's ids are.
//!
//! Ids come from a counter passed through a bijective integer mix (so they look like the game's
//! hashes, never repeat and never are 0). The counter is part of the save.

use serde::{Deserialize, Serialize};

/// The id generator of a world.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub(crate) struct IdGen {
    counter: u32,
}

impl Default for IdGen {
    fn default() -> Self {
        IdGen { counter: 1 }
    }
}

/// A bijection on u32 (the "lowbias32" mix).
fn mix(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb_352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846c_a68b);
    x ^= x >> 16;
    x
}

impl IdGen {
    /// A generator whose counter starts at `counter` (a separate id range, e.g. the colony's).
    pub(crate) fn starting_at(counter: u32) -> IdGen {
        IdGen { counter }
    }

    /// The next id.
    pub(crate) fn next_id(&mut self) -> i32 {
        loop {
            let v = mix(self.counter);
            self.counter = self.counter.wrapping_add(1);
            if v != 0 {
                return v as i32;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_nonzero_and_some_negative() {
        let mut g = IdGen::default();
        let ids: Vec<i32> = (0..10_000).map(|_| g.next_id()).collect();
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), ids.len());
        assert!(ids.iter().all(|i| *i != 0));
        assert!(ids.iter().any(|i| *i < 0) && ids.iter().any(|i| *i > 0));
        let mut again = IdGen::default();
        assert_eq!(again.next_id(), ids[0]);
    }
}
