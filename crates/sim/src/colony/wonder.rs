//! Wonders (the Folktails Earth Recultivator, the IronTeeth Earth Repopulator): buildings whose
//! catalogue entry carries the wonder flag. Once finished, a wonder wants its launch cost
//! (catalogue `wonder.launchCost`, e.g. 500 Paper and 500 Extract) hauled in like any input; the
//! hour it holds all of it, it is launched: the goods are spent, it stays active
//! (`wonderActive`), and `wonder.activated {id, name}` is queued with a notification. The
//! catalogue gives the Repopulator no launch cost, so it activates the hour it is finished.
//! What an active wonder does to the map is not modelled.

use super::building::Building;
use crate::content::Building as Spec;
use crate::event::names;
use crate::world::World;
use serde_json::json;

/// Whether a prefab is a wonder.
pub fn is_wonder(s: &Spec) -> bool {
    s.role == "wonder" || s.wonder.is_some()
}

/// The goods a wonder needs to launch.
pub fn launch_cost(s: &Spec) -> Vec<(String, u32)> {
    s.wonder
        .as_ref()
        .and_then(|w| w.get("launchCost"))
        .and_then(|c| c.as_array())
        .into_iter()
        .flatten()
        .filter_map(|c| {
            Some((
                c.get("good")?.as_str()?.to_owned(),
                c.get("amount")?.as_f64()?.ceil() as u32,
            ))
        })
        .collect()
}

/// What a finished wonder that has not launched wants hauled in.
pub(crate) fn launch_want(b: &Building) -> Vec<(String, u32)> {
    if b.finished && !b.wonder_active && is_wonder(b.spec()) {
        launch_cost(b.spec())
    } else {
        Vec::new()
    }
}

impl World {
    /// Hourly: launches each finished, unpaused wonder that holds its whole launch cost.
    pub(crate) fn launch_wonders(&mut self) {
        let ready: Vec<i32> = self
            .colony
            .listed(super::lists::List::Wonders)
            .filter(|(_, b)| b.finished && !b.paused && !b.wonder_active && is_wonder(b.spec()))
            .filter(|(_, b)| launch_cost(b.spec()).iter().all(|(g, n)| b.has(g) >= *n))
            .map(|(id, _)| *id)
            .collect();
        for id in ready {
            let b = self.colony.buildings.get_mut(&id).expect("listed");
            for (g, n) in launch_cost(b.spec()) {
                let used = b.take(&g, n);
                self.history.consumed(&g, used);
            }
            b.wonder_active = true;
            let name = b.prefab.to_string();
            let day = self.day();
            self.events.push(
                names::WONDER_ACTIVATED,
                day,
                json!({"id": id, "name": name}),
            );
            self.notify(
                "Wonder activated".to_owned(),
                format!("{name} was launched."),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{self, HOUR};

    #[test]
    fn a_finished_wonder_launches_the_hour_it_holds_its_launch_cost() {
        let mut w = testutil::world();
        let prefab = "EarthRecultivator.Folktails";
        let cost = launch_cost(crate::colony::building::spec(prefab));
        assert_eq!(
            cost,
            vec![("Paper".to_owned(), 500), ("Extract".to_owned(), 500)]
        );
        let (x, y, z) = testutil::flat_area(&mut w, 7, 8);
        let id = testutil::build(&mut w, prefab, x, y, z, "south");
        let view = w.building_view(id).unwrap();
        assert_eq!(
            (view.is_wonder, view.wonder_active),
            (Some(true), Some(false))
        );
        // Finished and not launched: it wants its launch cost hauled in.
        assert_eq!(launch_want(&w.colony.buildings[&id]), cost);
        // Half the cost is not enough.
        w.colony.buildings.get_mut(&id).unwrap().add("Paper", 500);
        w.colony.buildings.get_mut(&id).unwrap().add("Extract", 250);
        w.advance_ticks(HOUR);
        assert!(!w.colony.buildings[&id].wonder_active);
        assert!(testutil::events_named(&mut w, names::WONDER_ACTIVATED).is_empty());
        w.colony.buildings.get_mut(&id).unwrap().add("Extract", 250);
        w.advance_ticks(HOUR);
        let b = &w.colony.buildings[&id];
        assert!(b.wonder_active);
        assert_eq!(
            (b.has("Paper"), b.has("Extract")),
            (0, 0),
            "the launch spends it"
        );
        assert!(launch_want(b).is_empty());
        let ev = testutil::events_named(&mut w, names::WONDER_ACTIVATED);
        assert_eq!(ev, vec![json!({"id": id, "name": prefab})]);
        assert_eq!(w.building_view(id).unwrap().wonder_active, Some(true));
        // Other buildings carry no wonder flags.
        let dc = *w.colony.buildings.keys().next().unwrap();
        assert_eq!(w.building_view(dc).unwrap().is_wonder, None);
    }
}
