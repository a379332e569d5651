//! Demolition as the game does it: a finished building is marked (`demolish.marked`), the
//! district's builders come and take it down over time (sites first; a marked building's turn
//! comes when no site has work), and when its builder-hours are spent it goes as a demolished
//! building does (`remove_building`: its stock and refund into the district's stores with room,
//! `building.deconstructed`, `building.demolished`). Unmarking (`demolish.unmarked`) cancels and
//! forgets the work done. The building works on while marked. A site is never marked: it goes at
//! once (`POST /api/building/demolish`), as a finished district center never goes.

use serde_json::Value;

use super::building::Kind;
use super::rules::colony_rules;
use crate::error::{CommandError, ErrorCode};
use crate::event::names;
use crate::world::World;

impl World {
    /// Marks (`marked` true) or unmarks a finished building for demolition; returns its name.
    /// Queues `demolish.marked` / `demolish.unmarked` `{id, name, x, y, z}` when the mark
    /// changed. Errors: `not_found`; `invalid_type` for a site (demolish it at once) and for a
    /// finished district center (it holds the district together).
    pub fn mark_demolition(&mut self, id: i32, marked: bool) -> Result<String, CommandError> {
        let b = self.colony.building(id)?;
        let name = b.prefab.to_string();
        let refuse = |why: String| {
            CommandError::new(ErrorCode::InvalidType, why)
                .with("id", id)
                .with("name", name.as_str())
        };
        if !b.finished {
            return Err(refuse(format!(
                "{name} #{id} is still a site: sites are not marked, POST /api/building/demolish \
                 removes one at once and gives its delivered materials back"
            )));
        }
        if b.kind() == Kind::DistrictCenter {
            return Err(refuse(format!(
                "{name} #{id} is a district center; it holds the district together and cannot be \
                 demolished"
            )));
        }
        let was = self.colony.marked.contains_key(&id);
        if was == marked {
            return Ok(name);
        }
        let data: Value = self.building_event_data(id);
        let day = self.day();
        if marked {
            self.colony.marked.insert(id, 0.0);
            self.events.push(names::DEMOLISH_MARKED, day, data);
        } else {
            self.colony.marked.remove(&id);
            self.drop_plans_using(id);
            self.events.push(names::DEMOLISH_UNMARKED, day, data);
        }
        Ok(name)
    }

    /// Builder-hours a marked building takes to bring down: `construction.deconstructShare` of
    /// its build time.
    pub fn deconstruct_hours_needed(&self, id: i32) -> f64 {
        self.colony.buildings.get(&id).map_or(0.0, |b| {
            b.build_hours_needed() * colony_rules().construction.deconstruct_share.value
        })
    }

    /// The marked building of a district builders take down next: the oldest placed (then the
    /// lowest id).
    pub(super) fn next_to_take_down(&self, district: i32) -> Option<i32> {
        self.colony
            .marked
            .keys()
            .filter_map(|id| Some((self.colony.buildings.get(id)?, *id)))
            .filter(|(b, _)| b.district == Some(district))
            .min_by_key(|(b, id)| (b.seq, *id))
            .map(|(_, id)| id)
    }

    /// A builder worked `hours` on a marked building: once its hours are spent it is removed as
    /// a demolished building is. Work on a building no longer marked counts for nothing.
    pub(super) fn deconstruct_done(&mut self, id: i32, hours: f64) {
        let needed = self.deconstruct_hours_needed(id);
        let Some(done) = self.colony.marked.get_mut(&id) else {
            return;
        };
        *done += hours;
        if *done + 1e-9 >= needed {
            // A finished district center is never marked, the one thing remove_building refuses.
            let _ = self.remove_building(id);
        }
    }
}
