//! `Prefab`: a placed building's catalogue prefab as a copyable handle on a static table built
//! once from the catalogue (its entry, behaviour class and whether it has an entrance). Copying a
//! building (the copy-on-write building table a write copies while a snapshot shares it) then
//! copies a pointer instead of allocating its name. Reads like the name (`Deref<Target = str>`,
//! `Display`, comparisons with strings); saves hold the plain name.

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::OnceLock;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::building::{
    Kind, effect_radius, effect_science_per_hour, effect_visitors, kind_of, need_served, work_range,
};
use super::geometry::{Orientation, doorstep, has_entrance};
use crate::content::{Building as Spec, content};

/// A catalogue prefab (see the module documentation). Equal prefabs are the same table entry;
/// order, hash and equality are those of the name.
#[derive(Clone, Copy)]
pub struct Prefab(&'static Entry);

/// What a prefab's table entry holds, looked up once per catalogue prefab.
struct Entry {
    spec: &'static Spec,
    kind: Kind,
    entrance: bool,
    work_range: u32,
    /// The summary's role ([`super::SUMMARY_ROLES`] index; `None` for paths, not counted).
    summary_role: Option<u8>,
    effect: Effect,
    /// The doorstep's offset from the origin, by orientation (`geometry::doorstep`).
    doors: [Option<(i64, i64)>; 4],
}

/// What a prefab's need-serving effect reads from its catalogue JSON (`building::need_served`,
/// `effect_radius`, `effect_science_per_hour`, `effect_visitors`), read once: the colony's hours
/// ask them of every attraction and area effect.
struct Effect {
    need: Option<(&'static str, f64)>,
    radius: u32,
    science_per_hour: u32,
    visitors: usize,
}

/// Every catalogue prefab's entry by name.
fn table() -> &'static BTreeMap<&'static str, Entry> {
    static TABLE: OnceLock<BTreeMap<&'static str, Entry>> = OnceLock::new();
    TABLE.get_or_init(|| {
        content()
            .buildings
            .iter()
            .map(|(name, spec)| {
                let entry = Entry {
                    spec,
                    kind: kind_of(spec),
                    entrance: has_entrance(spec),
                    work_range: work_range(spec),
                    summary_role: super::summary::summary_role(&spec.role),
                    effect: Effect {
                        need: need_served(spec),
                        radius: effect_radius(spec),
                        science_per_hour: effect_science_per_hour(spec),
                        visitors: effect_visitors(spec),
                    },
                    doors: Orientation::ALL.map(|o| doorstep(spec, 0, 0, o)),
                };
                (name.as_str(), entry)
            })
            .collect()
    })
}

impl Prefab {
    /// The prefab of a catalogue name (`None` if the catalogue has no such prefab).
    pub fn get(name: &str) -> Option<Prefab> {
        table().get(name).map(Prefab)
    }

    /// The prefab's name.
    pub fn name(self) -> &'static str {
        &self.0.spec.name
    }

    /// The prefab's catalogue entry.
    pub fn spec(self) -> &'static Spec {
        self.0.spec
    }

    /// The summary role the prefab counts as ([`super::SUMMARY_ROLES`] index; `None`: a path,
    /// not counted).
    pub fn summary_role(self) -> Option<usize> {
        self.0.summary_role.map(usize::from)
    }

    /// The prefab's behaviour class (`building::kind_of`).
    pub fn kind(self) -> Kind {
        self.0.kind
    }

    /// Whether the prefab has an entrance (`geometry::has_entrance`).
    pub fn has_entrance(self) -> bool {
        self.0.entrance
    }

    /// The doorstep of the prefab standing at `(x, y)` facing `o` (`geometry::doorstep`).
    pub fn doorstep(self, x: i64, y: i64, o: Orientation) -> Option<(i64, i64)> {
        self.0.doors[o as usize].map(|(dx, dy)| (x + dx, y + dy))
    }

    /// The prefab's work range (`building::work_range`).
    pub fn work_range(self) -> u32 {
        self.0.work_range
    }

    /// The need the prefab serves and its wellbeing (`building::need_served`).
    pub fn need_served(self) -> Option<(&'static str, f64)> {
        self.0.effect.need
    }

    /// The reach of its area effect (`building::effect_radius`).
    pub fn effect_radius(self) -> u32 {
        self.0.effect.radius
    }

    /// Science its area effect burns an hour (`building::effect_science_per_hour`).
    pub fn effect_science_per_hour(self) -> u32 {
        self.0.effect.science_per_hour
    }

    /// Bots its station holds at once (`building::effect_visitors`).
    pub fn effect_visitors(self) -> usize {
        self.0.effect.visitors
    }
}

impl Deref for Prefab {
    type Target = str;
    fn deref(&self) -> &str {
        self.name()
    }
}

impl AsRef<str> for Prefab {
    fn as_ref(&self) -> &str {
        self.name()
    }
}

impl PartialEq for Prefab {
    fn eq(&self, other: &Prefab) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for Prefab {}

impl PartialEq<str> for Prefab {
    fn eq(&self, other: &str) -> bool {
        self.name() == other
    }
}

impl PartialEq<&str> for Prefab {
    fn eq(&self, other: &&str) -> bool {
        self.name() == *other
    }
}

impl PartialEq<String> for Prefab {
    fn eq(&self, other: &String) -> bool {
        self.name() == other
    }
}

impl PartialEq<Prefab> for str {
    fn eq(&self, other: &Prefab) -> bool {
        self == other.name()
    }
}

impl PartialEq<Prefab> for &str {
    fn eq(&self, other: &Prefab) -> bool {
        *self == other.name()
    }
}

impl Ord for Prefab {
    fn cmp(&self, other: &Prefab) -> Ordering {
        self.name().cmp(other.name())
    }
}

impl PartialOrd for Prefab {
    fn partial_cmp(&self, other: &Prefab) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Hash for Prefab {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name().hash(state);
    }
}

impl fmt::Display for Prefab {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for Prefab {
    /// As the name's (`"Path"`), as when the prefab was a `String`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.name(), f)
    }
}

impl Serialize for Prefab {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Prefab {
    /// The name; a name the catalogue lacks is an error (`unknown prefab "Name"`).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Prefab, D::Error> {
        struct Name;
        impl Visitor<'_> for Name {
            type Value = Prefab;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a prefab name")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Prefab, E> {
                Prefab::get(v).ok_or_else(|| E::custom(format!("unknown prefab {v:?}")))
            }
        }
        d.deserialize_str(Name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_catalogue_prefab_is_interned_once() {
        for (name, spec) in &content().buildings {
            let p = Prefab::get(name).expect("a catalogue prefab");
            assert!(std::ptr::eq(p.spec(), spec));
            assert_eq!(p, Prefab::get(name).unwrap());
            assert_eq!(p, name.as_str());
            assert_eq!(p.to_string(), *name);
            assert_eq!(p.kind(), kind_of(spec));
        }
        assert!(Prefab::get("Nope").is_none());
    }

    #[test]
    fn saves_as_its_plain_name() {
        let p = Prefab::get("Path").unwrap();
        assert_eq!(serde_json::to_string(&p).unwrap(), "\"Path\"");
        assert_eq!(format!("{p:?}"), "\"Path\"");
        let back: Prefab = serde_json::from_str("\"Path\"").unwrap();
        assert_eq!(back, p);
        let e = serde_json::from_value::<Prefab>(serde_json::json!("Nope")).unwrap_err();
        assert_eq!(e.to_string(), "unknown prefab \"Nope\"");
    }
}
