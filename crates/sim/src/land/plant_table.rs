//! The plants by id, with how many there are of each kind (trees, bushes, crops) kept as plants
//! come and go, so a list of one kind knows its length without a walk over every plant (the
//! first page of `/api/trees` reads a hundred trees, not the ten thousand plants of a large map).
//!
//! A plant's species, and so its kind, is fixed for its life: the table hands out `&mut Plant`
//! for growth, fruit and health, and the counts stay true as long as nothing changes a species
//! in place (a test walks the plants against the counts).

use std::collections::BTreeMap;
use std::collections::btree_map;
use std::ops::Index;

use crate::catalog::PlantKind;

use super::plants::Plant;

/// Every plant by id (dead stumps included), in id order.
#[derive(Debug, Clone, Default)]
pub(crate) struct PlantTable {
    by_id: BTreeMap<i32, Plant>,
    /// Plants of each kind, by [`slot`].
    kinds: [usize; 3],
}

/// The count slot of a kind.
fn slot(kind: PlantKind) -> usize {
    match kind {
        PlantKind::Tree => 0,
        PlantKind::Bush => 1,
        PlantKind::Crop => 2,
    }
}

impl PlantTable {
    pub(crate) fn get(&self, id: &i32) -> Option<&Plant> {
        self.by_id.get(id)
    }

    /// A plant to change (not its species: see the module docs).
    pub(crate) fn get_mut(&mut self, id: &i32) -> Option<&mut Plant> {
        self.by_id.get_mut(id)
    }

    pub(crate) fn contains_key(&self, id: &i32) -> bool {
        self.by_id.contains_key(id)
    }

    pub(crate) fn iter(&self) -> btree_map::Iter<'_, i32, Plant> {
        self.by_id.iter()
    }

    /// Every plant with its id, to change (not their species: see the module docs).
    pub(crate) fn iter_mut(&mut self) -> btree_map::IterMut<'_, i32, Plant> {
        self.by_id.iter_mut()
    }

    pub(crate) fn values(&self) -> btree_map::Values<'_, i32, Plant> {
        self.by_id.values()
    }

    /// How many plants of `kind` there are (dead ones included).
    pub(crate) fn count(&self, kind: PlantKind) -> usize {
        self.kinds[slot(kind)]
    }

    /// Adds (or replaces) the plant `id`; returns the one it replaced.
    pub(crate) fn insert(&mut self, id: i32, plant: Plant) -> Option<Plant> {
        self.kinds[slot(plant.kind())] += 1;
        let old = self.by_id.insert(id, plant);
        if let Some(o) = &old {
            self.kinds[slot(o.kind())] -= 1;
        }
        old
    }

    pub(crate) fn remove(&mut self, id: &i32) -> Option<Plant> {
        let old = self.by_id.remove(id)?;
        self.kinds[slot(old.kind())] -= 1;
        Some(old)
    }

    /// The plants of `kind` with their ids, in id order, knowing how many are left (an
    /// [`ExactSizeIterator`]).
    pub(crate) fn of_kind(&self, kind: PlantKind) -> OfKind<'_> {
        OfKind {
            all: self.by_id.iter(),
            kind,
            left: self.count(kind),
        }
    }
}

impl Index<&i32> for PlantTable {
    type Output = Plant;

    fn index(&self, id: &i32) -> &Plant {
        &self.by_id[id]
    }
}

/// The plants of one kind ([`PlantTable::of_kind`]).
pub(crate) struct OfKind<'a> {
    all: btree_map::Iter<'a, i32, Plant>,
    kind: PlantKind,
    left: usize,
}

impl<'a> Iterator for OfKind<'a> {
    type Item = (&'a i32, &'a Plant);

    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 {
            return None;
        }
        let kind = self.kind;
        let found = self.all.find(|(_, p)| p.kind() == kind);
        debug_assert!(
            found.is_some(),
            "the {kind:?} count is past the table's plants"
        );
        self.left -= usize::from(found.is_some());
        found
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for OfKind<'_> {}

#[cfg(test)]
mod tests {
    use crate::catalog::PlantKind;
    use crate::colony::fixtures;
    use crate::config::NewGame;
    use crate::ticks_per_day;
    use crate::world::World;

    /// The kinds' counts against a walk of the plants.
    fn check(w: &World) {
        for kind in [PlantKind::Tree, PlantKind::Bush, PlantKind::Crop] {
            let walked = w.land.plants.values().filter(|p| p.kind() == kind).count();
            assert_eq!(w.land.plants.count(kind), walked, "{kind:?}");
            let listed: Vec<i32> = w.land.plants.of_kind(kind).map(|(id, _)| *id).collect();
            assert_eq!(listed.len(), walked, "{kind:?}");
            assert!(listed.is_sorted());
        }
    }

    #[test]
    fn the_counts_follow_plants_growing_spreading_cut_and_harvested() {
        // A colony at work (lumberjacks, farms, gatherers) over days of spreading and dying,
        // and a new map, saved and loaded.
        let mut w = fixtures::small_colony();
        let counts = |w: &World| {
            [PlantKind::Tree, PlantKind::Bush, PlantKind::Crop].map(|k| w.land.plants.count(k))
        };
        let before = counts(&w);
        check(&w);
        for _ in 0..6 {
            w.advance_ticks(ticks_per_day());
            check(&w);
        }
        assert_ne!(counts(&w), before, "plants came or went");
        let fresh = World::new(&NewGame {
            seed: 7,
            ..NewGame::default()
        });
        check(&fresh);
        let loaded = World::load_from_bytes(&fresh.save_to_bytes()).unwrap();
        check(&loaded);
    }

    #[test]
    fn replacing_and_removing_keep_the_counts() {
        let mut w = World::new(&NewGame {
            seed: 3,
            ..NewGame::default()
        });
        let trees = w.land.plants.count(PlantKind::Tree);
        let (id, tree) = w
            .land
            .plants
            .of_kind(PlantKind::Tree)
            .map(|(id, p)| (*id, p.clone()))
            .next()
            .unwrap();
        assert!(w.land.plants.insert(id, tree.clone()).is_some());
        assert_eq!(w.land.plants.count(PlantKind::Tree), trees);
        assert!(w.land.plants.remove(&id).is_some());
        assert!(w.land.plants.remove(&id).is_none());
        assert_eq!(w.land.plants.count(PlantKind::Tree), trees - 1);
        check(&w);
    }
}
