//! The keys the plant lists (`/api/trees`, `/api/crops`) filter and page by, and the views of a
//! page: a list of 100 trees builds 100 views, not one per plant on the map.

use super::views::ListKey;
use crate::catalog::PlantKind;
use crate::land::{GatherableView, PlantView};
use crate::world::World;

impl World {
    /// What the tree list filters by, in id order (the order of [`World::trees`]), without
    /// building any view.
    pub fn tree_keys(&self) -> impl ExactSizeIterator<Item = ListKey<'_>> {
        self.plant_keys(PlantKind::Tree)
    }

    /// As [`World::tree_keys`], for bushes ([`World::gatherables`]).
    pub fn gatherable_keys(&self) -> impl ExactSizeIterator<Item = ListKey<'_>> {
        self.plant_keys(PlantKind::Bush)
    }

    /// As [`World::tree_keys`], for crops ([`World::crops`]).
    pub fn crop_keys(&self) -> impl ExactSizeIterator<Item = ListKey<'_>> {
        self.plant_keys(PlantKind::Crop)
    }

    /// Knows how many keys are left (the table counts each kind), so a page with no filter is
    /// taken without walking the rest.
    fn plant_keys(&self, kind: PlantKind) -> impl ExactSizeIterator<Item = ListKey<'_>> {
        self.land.plants.of_kind(kind).map(|(id, p)| ListKey {
            id: *id,
            name: p.name(),
            x: p.x,
            y: p.y,
        })
    }

    /// The views of the plants `ids` (in that order; ids with no plant are skipped).
    pub fn plant_views_of(&self, ids: &[i32]) -> Vec<PlantView> {
        // Sized up front, as `buildings_of`: a `filter_map` gives no lower bound.
        let mut views = Vec::with_capacity(ids.len());
        views.extend(
            ids.iter()
                .filter_map(|id| Some(self.land.plant_view(*id, self.land.plants.get(id)?))),
        );
        views
    }

    /// The views of the bushes `ids` (in that order; ids with no plant are skipped).
    pub fn gatherable_views_of(&self, ids: &[i32]) -> Vec<GatherableView> {
        let mut views = Vec::with_capacity(ids.len());
        views.extend(
            ids.iter()
                .filter_map(|id| Some(GatherableView::of(*id, self.land.plants.get(id)?))),
        );
        views
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_keys_and_views_of_a_page_are_the_lists_own() {
        let w = crate::colony::fixtures::small_colony();
        for (keys, all) in [
            (w.tree_keys().collect::<Vec<_>>(), w.trees()),
            (w.crop_keys().collect(), w.crops()),
        ] {
            let ids: Vec<i32> = keys.iter().map(|k| k.id).collect();
            assert_eq!(ids, all.iter().map(|p| p.id).collect::<Vec<_>>());
            for (k, p) in keys.iter().zip(&all) {
                assert_eq!((k.name, k.x, k.y), (p.name.as_str(), p.x, p.y));
            }
            assert_eq!(w.plant_views_of(&ids), all);
        }
        let keys: Vec<i32> = w.gatherable_keys().map(|k| k.id).collect();
        assert_eq!(w.gatherable_views_of(&keys), w.gatherables());
        assert!(!keys.is_empty());
    }
}
