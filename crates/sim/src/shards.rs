//! `Shards<V>`: a map from entity ids to values, kept in id order as 64 copy-on-write parts.
//!
//! A snapshot of the world shares its tables with the host's world ([`crate::shared::Shared`]).
//! A table shared whole is copied whole by the first write after a publish: a pause toggle on a
//! colony of 7,500 buildings copied all of them. Here the ids are split by range into 64 parts,
//! each its own `Shared` `BTreeMap`, so such a write copies the one part holding the building (a
//! 64th of the table) and the snapshot keeps sharing the rest.
//!
//! The parts are ranges of the id space in order (the top six bits of the id, sign first), so
//! walking them one after the other visits the ids in the order a single `BTreeMap` would: the
//! world's iteration order, and so determinism, does not depend on the split. Entity ids are
//! spread over the whole `i32` range (`ids::IdGen` mixes a counter), so the parts stay even.
//! Saves see one plain map (the same text as a `BTreeMap`).
//!
//! Sharing per entity instead (an `Arc` per building) put an indirection into the systems' inner
//! loops and made a game day 30-45% slower (docs/performance.md); a part's `make_mut` costs what
//! the whole table's did, once per mutable access.

use std::collections::{BTreeMap, btree_map};
use std::fmt;
use std::ops::Index;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::shared::Shared;

/// How many parts (a power of two: the part is the id's top `PART_BITS` bits).
const PARTS: usize = 64;
const PART_BITS: u32 = PARTS.trailing_zeros();

/// The part holding `id`: its top bits with the sign flipped, so parts follow `i32` order.
#[inline(always)]
fn part(id: i32) -> usize {
    ((id as u32 ^ 0x8000_0000) >> (32 - PART_BITS)) as usize
}

/// An id-ordered map in copy-on-write parts (see the module documentation).
#[derive(Clone)]
pub struct Shards<V> {
    parts: [Shared<BTreeMap<i32, V>>; PARTS],
    len: usize,
}

impl<V> Default for Shards<V> {
    fn default() -> Self {
        Shards {
            parts: std::array::from_fn(|_| Shared::default()),
            len: 0,
        }
    }
}

impl<V> Shards<V> {
    /// How many entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The value of `id`.
    #[inline]
    pub fn get(&self, id: &i32) -> Option<&V> {
        self.parts[part(*id)].get(id)
    }

    /// Whether `id` is present.
    pub fn contains_key(&self, id: &i32) -> bool {
        self.parts[part(*id)].contains_key(id)
    }

    /// Entries in id order.
    pub fn iter(&self) -> Iter<'_, V> {
        let mut parts = self.parts.iter();
        let cur = parts.next().map(|p| p.iter()).unwrap_or_default();
        Iter {
            parts,
            cur,
            left: self.len,
        }
    }

    /// Ids in order.
    pub fn keys(&self) -> impl Iterator<Item = &i32> + Clone + '_ {
        self.iter().map(|(id, _)| id)
    }

    /// Values in id order.
    pub fn values(&self) -> impl Iterator<Item = &V> + Clone + '_ {
        self.iter().map(|(_, v)| v)
    }

    /// How many parts `self` and `other` still share (not copied apart since one was cloned from
    /// the other).
    pub fn parts_shared_with(&self, other: &Shards<V>) -> usize {
        self.parts
            .iter()
            .zip(&other.parts)
            .filter(|(a, b)| Shared::ptr_eq(a, b))
            .count()
    }
}

impl<V: Clone> Shards<V> {
    /// The value of `id`, to change (copies its part first when a snapshot shares it).
    #[inline]
    pub fn get_mut(&mut self, id: &i32) -> Option<&mut V> {
        self.parts[part(*id)].get_mut(id)
    }

    /// Sets the value of `id`, returning the one it replaces.
    pub fn insert(&mut self, id: i32, value: V) -> Option<V> {
        let old = self.parts[part(id)].insert(id, value);
        if old.is_none() {
            self.len += 1;
        }
        old
    }

    /// Takes `id` out.
    pub fn remove(&mut self, id: &i32) -> Option<V> {
        let old = self.parts[part(*id)].remove(id);
        self.len -= usize::from(old.is_some());
        old
    }
}

impl<V: Clone> FromIterator<(i32, V)> for Shards<V> {
    fn from_iter<I: IntoIterator<Item = (i32, V)>>(items: I) -> Self {
        let mut s = Shards::default();
        for (id, v) in items {
            s.insert(id, v);
        }
        s
    }
}

impl<V: Clone> From<BTreeMap<i32, V>> for Shards<V> {
    fn from(map: BTreeMap<i32, V>) -> Self {
        map.into_iter().collect()
    }
}

impl<V> Index<&i32> for Shards<V> {
    type Output = V;
    /// The value of `id`; panics when there is none (as a `BTreeMap` does).
    fn index(&self, id: &i32) -> &V {
        self.get(id).expect("no entry for this id")
    }
}

/// The entries of a [`Shards`] in id order: part after part.
pub struct Iter<'a, V> {
    parts: std::slice::Iter<'a, Shared<BTreeMap<i32, V>>>,
    cur: btree_map::Iter<'a, i32, V>,
    /// Entries not yet given (the count is exact: a page of a list is taken without a walk).
    left: usize,
}

impl<V> Clone for Iter<'_, V> {
    fn clone(&self) -> Self {
        Iter {
            parts: self.parts.clone(),
            cur: self.cur.clone(),
            left: self.left,
        }
    }
}

impl<'a, V> Iterator for Iter<'a, V> {
    type Item = (&'a i32, &'a V);
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(e) = self.cur.next() {
                self.left = self.left.saturating_sub(1);
                return Some(e);
            }
            self.cur = self.parts.next()?.iter();
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl<V> ExactSizeIterator for Iter<'_, V> {}

impl<'a, V> IntoIterator for &'a Shards<V> {
    type Item = (&'a i32, &'a V);
    type IntoIter = Iter<'a, V>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<V: PartialEq> PartialEq for Shards<V> {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl<V: fmt::Debug> fmt::Debug for Shards<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<V: Serialize> Serialize for Shards<V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<'de, V: Deserialize<'de> + Clone> Deserialize<'de> for Shards<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        BTreeMap::<i32, V>::deserialize(d).map(Shards::from)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::{PARTS, Shards, part};

    /// Ids spread like the game's, plus the ends of the range.
    fn ids() -> Vec<i32> {
        let mut ids: Vec<i32> = (0..2_000u32)
            .map(|i| i.wrapping_mul(0x9e37_79b9).rotate_left(7) as i32)
            .collect();
        ids.extend([i32::MIN, i32::MIN + 1, -1, 0, 1, i32::MAX - 1, i32::MAX]);
        ids
    }

    #[test]
    fn walks_ids_in_the_order_of_one_map() {
        let ids = ids();
        let plain: BTreeMap<i32, i32> = ids.iter().map(|i| (*i, i.wrapping_mul(3))).collect();
        let shards: Shards<i32> = ids.iter().map(|i| (*i, i.wrapping_mul(3))).collect();
        assert_eq!(shards.len(), plain.len());
        assert!(shards.iter().eq(plain.iter()));
        // The count is exact all the way.
        let mut it = shards.iter();
        for left in (0..=plain.len()).rev() {
            assert_eq!(it.size_hint(), (left, Some(left)));
            assert_eq!(it.next().is_some(), left > 0);
        }
        assert!(shards.keys().eq(plain.keys()));
        assert!(part(i32::MIN) == 0 && part(i32::MAX) == PARTS - 1);
        assert!(
            ids.windows(2)
                .all(|w| (w[0] < w[1]) <= (part(w[0]) <= part(w[1])))
        );
    }

    #[test]
    fn inserts_and_removes_like_a_map() {
        let mut plain = BTreeMap::new();
        let mut shards = Shards::default();
        for (n, id) in ids().into_iter().enumerate() {
            assert_eq!(shards.insert(id, n), plain.insert(id, n));
            if n % 3 == 0 {
                assert_eq!(shards.remove(&id), plain.remove(&id));
            }
            assert_eq!(shards.remove(&(id ^ 1)), plain.remove(&(id ^ 1)));
            assert_eq!(shards.len(), plain.len());
        }
        for (id, v) in &plain {
            assert_eq!(shards.get(id), Some(v));
            assert_eq!(shards[id], *v);
        }
        assert!(shards.values().eq(plain.values()));
        assert_eq!(shards.get_mut(&12345), plain.get_mut(&12345));
    }

    #[test]
    fn a_write_copies_only_the_part_it_touches() {
        let a: Shards<u64> = ids().into_iter().map(|i| (i, 0)).collect();
        let mut b = a.clone();
        assert_eq!(b.parts_shared_with(&a), PARTS);
        let id = ids()[17];
        *b.get_mut(&id).unwrap() = 9;
        assert_eq!(b.parts_shared_with(&a), PARTS - 1);
        assert_eq!((a[&id], b[&id]), (0, 9));
    }

    #[test]
    fn saves_see_one_plain_map() {
        let plain: BTreeMap<i32, u8> = ids().into_iter().map(|i| (i, 1)).collect();
        let shards = Shards::from(plain.clone());
        let text = serde_json::to_string(&shards).unwrap();
        assert_eq!(text, serde_json::to_string(&plain).unwrap());
        let back: Shards<u8> = serde_json::from_str(&text).unwrap();
        assert_eq!(back, shards);
    }
}
