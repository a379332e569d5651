//! `Shared<T>`: a value behind an `Arc`, copied on write. Cloning a `Shared` only bumps a
//! reference count; the first mutable access through a clone that is not the only owner copies
//! the value (`Arc::make_mut`), so a published snapshot and the host's world share every table a
//! write or a tick did not touch. Reads and writes look like those of a plain `T` (`Deref`,
//! `DerefMut`); saves see the plain `T` (serde transparent).
//!
//! Whole tables are shared, not their entries or the grids inside a table: finer sharing put an
//! indirection (and `make_mut`'s atomics) into the systems' inner loops and made a game day of
//! the large colony 30-45% slower (docs/performance.md). The building table is the one split,
//! into 64 parts by id range (`crate::shards::Shards`).

use std::fmt;
use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A copy-on-write value (see the module documentation).
#[derive(Default, PartialEq, Eq)]
pub struct Shared<T>(Arc<T>);

impl<T> Shared<T> {
    /// Wraps a value.
    pub fn new(value: T) -> Shared<T> {
        Shared(Arc::new(value))
    }

    /// Whether `a` and `b` are the very same value (not copied apart yet).
    pub fn ptr_eq(a: &Shared<T>, b: &Shared<T>) -> bool {
        Arc::ptr_eq(&a.0, &b.0)
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(Arc::clone(&self.0))
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Clone> DerefMut for Shared<T> {
    /// Copies the value first when another `Shared` still holds it.
    fn deref_mut(&mut self) -> &mut T {
        Arc::make_mut(&mut self.0)
    }
}

impl<'a, T> IntoIterator for &'a Shared<T>
where
    &'a T: IntoIterator,
{
    type Item = <&'a T as IntoIterator>::Item;
    type IntoIter = <&'a T as IntoIterator>::IntoIter;
    fn into_iter(self) -> Self::IntoIter {
        (&*self.0).into_iter()
    }
}

impl<T> From<T> for Shared<T> {
    fn from(value: T) -> Self {
        Shared::new(value)
    }
}

impl<T: fmt::Debug> fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<T: Serialize> Serialize for Shared<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Shared<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize(d).map(Shared::new)
    }
}

#[cfg(test)]
mod tests {
    use super::Shared;

    #[test]
    fn a_write_copies_only_a_shared_value_once() {
        let a = Shared::new(vec![1, 2, 3]);
        let mut b = a.clone();
        assert!(Shared::ptr_eq(&a, &b));
        assert_eq!(b.len(), 3, "a read does not copy");
        assert!(Shared::ptr_eq(&a, &b));
        b.push(4);
        assert!(!Shared::ptr_eq(&a, &b));
        assert_eq!(*a, vec![1, 2, 3]);
        assert_eq!(*b, vec![1, 2, 3, 4]);
        let before = &*b as *const Vec<i32>;
        b.push(5);
        assert_eq!(
            before, &*b as *const Vec<i32>,
            "a sole owner writes in place"
        );
    }

    #[test]
    fn a_sole_owner_that_was_cloned_copies_on_its_next_write() {
        let mut a = Shared::new(vec![1]);
        a.push(2);
        let c = a.clone();
        a.push(3);
        assert_eq!(*c, vec![1, 2], "the clone keeps the value it was made from");
        assert_eq!(*a, vec![1, 2, 3]);
        let d = c.clone();
        drop(c);
        let mut d = d;
        d.push(4);
        assert_eq!(*d, vec![1, 2, 4]);
        assert_eq!(*a, vec![1, 2, 3]);
    }

    #[test]
    fn saves_see_the_plain_value() {
        let a = Shared::new(vec![1, 2]);
        let text = serde_json::to_string(&a).unwrap();
        assert_eq!(text, "[1,2]");
        let back: Shared<Vec<i32>> = serde_json::from_str(&text).unwrap();
        assert_eq!(a, back);
    }
}
