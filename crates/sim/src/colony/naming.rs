//! Names the player gives: renaming a beaver, a bot, or a building the game lets the player
//! name (the catalogue's `NamedEntitySpec`: district centers and the automation devices), the
//! name's checks, and the `entity.renamed` event. A district center's name is its district's:
//! renaming a finished center renames the district, and a center renamed while a site founds
//! its district under that name.

use serde::Serialize;
use serde_json::json;

use super::building::Kind;
use crate::error::{CommandError, ErrorCode};
use crate::event::names;
use crate::world::World;

/// The longest name accepted, in characters.
pub const MAX_NAME_CHARS: usize = 32;

/// The characters a name may hold besides letters, digits and spaces.
pub const NAME_PUNCTUATION: &str = "-'._#()!?&";

/// What a rename did (`POST /api/entity/rename`'s answer).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Renamed {
    pub id: i32,
    /// `building` or `character`, as `entity.created` says.
    pub kind: &'static str,
    /// The name now.
    pub name: String,
    /// The name before: a beaver's or bot's old name; a building's former given name (a
    /// finished center's, its district's name), `None` when it had none.
    pub previous: Option<String>,
}

/// The name trimmed of surrounding spaces, or `invalid_param` saying what is wrong with it:
/// empty, longer than [`MAX_NAME_CHARS`] characters, or holding a character other than
/// letters, digits, spaces and [`NAME_PUNCTUATION`] (the lists' text forms join names with
/// `/`, `:`, `+` and `,`).
pub fn check_name(name: &str) -> Result<&str, CommandError> {
    let trimmed = name.trim();
    if trimmed.is_empty() {
        return Err(CommandError::invalid_param(
            format!(
                "name must not be empty; give 1-{MAX_NAME_CHARS} characters such as \"Pump Crew\""
            ),
            name,
        ));
    }
    let chars = trimmed.chars().count();
    if chars > MAX_NAME_CHARS {
        return Err(CommandError::invalid_param(
            format!("name must be at most {MAX_NAME_CHARS} characters; got {chars}; shorten it"),
            name,
        ));
    }
    if let Some(c) = trimmed
        .chars()
        .find(|c| !(c.is_alphanumeric() || *c == ' ' || NAME_PUNCTUATION.contains(*c)))
    {
        return Err(CommandError::invalid_param(
            format!(
                "name must not contain {c:?}; use letters, digits, spaces and {NAME_PUNCTUATION}"
            ),
            name,
        ));
    }
    Ok(trimmed)
}

/// Whether the game lets the player name a building of this prefab.
pub fn nameable(spec: &crate::content::Building) -> bool {
    spec.components.iter().any(|c| c == "NamedEntitySpec")
}

impl World {
    /// A building's given name: a finished center's district name, else the name the player
    /// gave it (`None`: it shows its prefab name only).
    pub fn building_given_name(&self, id: i32) -> Option<String> {
        if let Some(d) = self.colony.districts.get(&id) {
            return Some(d.name.clone());
        }
        self.colony.buildings.get(&id)?.custom_name.clone()
    }

    /// Renames a beaver, a bot or a nameable building (see the module docs); queues
    /// `entity.renamed {id, kind, name, previous}` when the name changed. Errors: a bad name is
    /// `invalid_param`; an id of nothing is `not_found`; a building the game gives no name
    /// `invalid_type`; a center's name another district already has `invalid_param`.
    pub fn rename_entity(&mut self, id: i32, name: &str) -> Result<Renamed, CommandError> {
        let name = check_name(name)?.to_owned();
        if let Some(b) = self.colony.beavers.get_mut(&id) {
            let previous = std::mem::replace(&mut b.name, name.clone());
            let done = Renamed {
                id,
                kind: "character",
                name,
                previous: Some(previous),
            };
            self.announce_rename(&done);
            return Ok(done);
        }
        let Some(b) = self.colony.buildings.get(&id) else {
            return Err(CommandError::new(
                ErrorCode::NotFound,
                format!(
                    "no building, beaver or bot with id {id}; ids change when things go, \
                     re-query GET /api/buildings or GET /api/beavers (trees and crops take no name)"
                ),
            )
            .with("id", id));
        };
        let prefab = b.prefab.to_string();
        if !nameable(b.spec()) {
            return Err(CommandError::new(
                ErrorCode::InvalidType,
                format!(
                    "{prefab} #{id} takes no name in the game; only district centers and \
                     automation devices (sensors, levers, relays, memory cells, timers, \
                     indicators, counters) are named, and beavers and bots"
                ),
            )
            .with("id", id)
            .with("name", prefab));
        }
        let taken = self
            .colony
            .districts
            .iter()
            .find(|(d, other)| **d != id && other.name.eq_ignore_ascii_case(&name))
            .map(|(_, other)| other.name.clone());
        if let Some(other) = taken.filter(|_| b.kind() == Kind::DistrictCenter) {
            return Err(CommandError::invalid_param(
                format!(
                    "another district is already named {other:?}; district names pick a \
                     district in migration and distribution, so choose another"
                ),
                name.as_str(),
            )
            .with("id", id));
        }
        let previous = self.building_given_name(id);
        self.colony
            .buildings
            .get_mut(&id)
            .expect("checked")
            .custom_name = Some(name.clone());
        if let Some(d) = self.colony.districts.get_mut(&id) {
            d.name = name.clone();
        }
        let done = Renamed {
            id,
            kind: "building",
            name,
            previous,
        };
        self.announce_rename(&done);
        Ok(done)
    }

    /// `entity.renamed`, unless the name stayed the same.
    fn announce_rename(&mut self, r: &Renamed) {
        if r.previous.as_deref() == Some(r.name.as_str()) {
            return;
        }
        let day = self.day();
        self.events.push(
            names::ENTITY_RENAMED,
            day,
            json!({ "id": r.id, "kind": r.kind, "name": r.name, "previous": r.previous }),
        );
    }
}
