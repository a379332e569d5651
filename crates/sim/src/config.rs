//! New-game settings: faction, game mode, seed, map size and settlement name, with validation.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::catalog::world_rules;
use crate::error::CommandError;

/// Longest settlement name accepted, in characters.
pub const MAX_SETTLEMENT_NAME_CHARS: usize = 64;

/// Normalises a name for case- and separator-insensitive matching.
fn fold(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The two beaver factions.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default,
)]
pub enum Faction {
    #[default]
    Folktails,
    IronTeeth,
}

impl Faction {
    pub const ALL: [Faction; 2] = [Faction::Folktails, Faction::IronTeeth];

    /// The contract's spelling: `Folktails` or `IronTeeth`.
    pub fn as_str(self) -> &'static str {
        match self {
            Faction::Folktails => "Folktails",
            Faction::IronTeeth => "IronTeeth",
        }
    }
}

impl fmt::Display for Faction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Faction {
    type Err = CommandError;

    /// Case-insensitive; spaces, `-` and `_` are ignored (`iron_teeth` works).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let key = fold(s);
        Faction::ALL
            .into_iter()
            .find(|f| fold(f.as_str()) == key)
            .ok_or_else(|| {
                CommandError::invalid_param(
                    format!("faction must be Folktails or IronTeeth; got {s:?}"),
                    s,
                )
            })
    }
}

/// Difficulty; sets the weather numbers (and later consumption and starting stock).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default,
)]
pub enum GameMode {
    Easy,
    #[default]
    Normal,
    Hard,
}

impl GameMode {
    pub const ALL: [GameMode; 3] = [GameMode::Easy, GameMode::Normal, GameMode::Hard];

    /// The data file's key: `Easy`, `Normal` or `Hard`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameMode::Easy => "Easy",
            GameMode::Normal => "Normal",
            GameMode::Hard => "Hard",
        }
    }
}

impl fmt::Display for GameMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for GameMode {
    type Err = CommandError;

    /// Case-insensitive.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let key = fold(s);
        GameMode::ALL
            .into_iter()
            .find(|m| fold(m.as_str()) == key)
            .ok_or_else(|| {
                CommandError::invalid_param(
                    format!("mode must be Easy, Normal or Hard; got {s:?}"),
                    s,
                )
            })
    }
}

/// Settings of a new game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewGame {
    pub seed: u64,
    pub faction: Faction,
    pub mode: GameMode,
    pub map_width: u32,
    pub map_height: u32,
    pub settlement: String,
    /// What the game starts with beyond the mode's defaults (scenarios).
    #[serde(default)]
    pub setup: Setup,
}

/// A scenario's start (extension of `POST /api/game/new`): goods added to the district center,
/// science points, and buildings unlocked without spending them. Applied once, as the world is
/// made, so it is part of the world (and of its saves) like anything else.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    #[serde(default)]
    pub goods: std::collections::BTreeMap<String, u32>,
    #[serde(default)]
    pub science: u32,
    #[serde(default)]
    pub unlocked: Vec<String>,
}

impl Default for NewGame {
    /// Seed 1, Folktails, Normal, the data's default map size (128x128), "New Colony".
    fn default() -> Self {
        let [w, h] = world_rules().map.default_size.value;
        NewGame {
            seed: 1,
            faction: Faction::Folktails,
            mode: GameMode::Normal,
            map_width: w,
            map_height: h,
            settlement: "New Colony".to_owned(),
            setup: Setup::default(),
        }
    }
}

impl NewGame {
    /// Checks every setting; the first problem is returned as `invalid_param`.
    ///
    /// Map sides must lie in `map.minSize..=map.maxSize` (32..=256); the settlement name must be
    /// non-blank, at most 64 characters and free of control characters.
    pub fn validate(&self) -> Result<(), CommandError> {
        let rules = &world_rules().map;
        let (min, max) = (rules.min_size.value, rules.max_size.value);
        for (what, v) in [
            ("map width", self.map_width),
            ("map height", self.map_height),
        ] {
            if !(min..=max).contains(&v) {
                return Err(CommandError::invalid_param(
                    format!(
                        "{what} must be an integer {min}-{max} (default 128); got {v}; \
                         choose a size between {min}x{min} and {max}x{max}"
                    ),
                    v,
                ));
            }
        }
        let name = self.settlement.trim();
        if name.is_empty() {
            return Err(CommandError::invalid_param(
                "settlement name must not be empty; give a name such as \"New Colony\"",
                self.settlement.as_str(),
            ));
        }
        let chars = name.chars().count();
        if chars > MAX_SETTLEMENT_NAME_CHARS {
            return Err(CommandError::invalid_param(
                format!(
                    "settlement name must be at most {MAX_SETTLEMENT_NAME_CHARS} characters; \
                     got {chars}; shorten it"
                ),
                self.settlement.as_str(),
            ));
        }
        if name.chars().any(char::is_control) {
            return Err(CommandError::invalid_param(
                "settlement name must not contain control characters (newlines, tabs); \
                 remove them",
                self.settlement.as_str(),
            ));
        }
        self.validate_setup()
    }

    /// Setup goods must be goods of the catalogue; unlocked buildings must be the faction's
    /// buildings that science unlocks (names with the faction suffix).
    fn validate_setup(&self) -> Result<(), CommandError> {
        let c = crate::content::content();
        for g in self.setup.goods.keys() {
            if !c.goods.contains_key(g) {
                let names: Vec<&str> = c.goods.keys().map(String::as_str).collect();
                return Err(CommandError::invalid_param(
                    format!(
                        "setup.goods: unknown good {g:?}; goods: {}",
                        names.join(", ")
                    ),
                    g.as_str(),
                ));
            }
        }
        let faction = self.faction.as_str();
        let unlockable: Vec<&str> = c
            .buildings
            .values()
            .filter(|b| {
                b.player_placeable
                    && b.science_cost > 0
                    && (b.faction == faction || b.faction == "Common")
            })
            .map(|b| b.name.as_str())
            .collect();
        for u in &self.setup.unlocked {
            if !unlockable.contains(&u.as_str()) {
                return Err(CommandError::invalid_param(
                    format!(
                        "setup.unlocked: {u:?} is not a {faction} building that science unlocks; valid: {}",
                        unlockable.join(", ")
                    ),
                    u.as_str(),
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;

    #[test]
    fn faction_and_mode_parse_case_insensitively() {
        assert_eq!("folktails".parse::<Faction>().unwrap(), Faction::Folktails);
        assert_eq!("IRONTEETH".parse::<Faction>().unwrap(), Faction::IronTeeth);
        assert_eq!("iron_teeth".parse::<Faction>().unwrap(), Faction::IronTeeth);
        assert_eq!(Faction::IronTeeth.to_string(), "IronTeeth");
        assert_eq!("hard".parse::<GameMode>().unwrap(), GameMode::Hard);
        let e = "beavers".parse::<Faction>().unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidParam);
        assert!(e.detail.contains("\"beavers\""), "{}", e.detail);
        assert!("medium".parse::<GameMode>().is_err());
        assert_eq!(GameMode::default(), GameMode::Normal);
    }

    #[test]
    fn validation_rejects_bad_sizes_and_names() {
        let ok = NewGame::default();
        assert_eq!((ok.map_width, ok.map_height), (128, 128));
        assert!(ok.validate().is_ok());
        for (w, h) in [(31, 64), (64, 257), (0, 0), (1000, 128)] {
            let g = NewGame {
                map_width: w,
                map_height: h,
                ..NewGame::default()
            };
            let e = g.validate().unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidParam);
            assert!(e.extras["got"] == w || e.extras["got"] == h);
        }
        for (w, h) in [(32, 32), (256, 256), (40, 200)] {
            let g = NewGame {
                map_width: w,
                map_height: h,
                ..NewGame::default()
            };
            assert!(g.validate().is_ok());
        }
        for name in ["", "   ", "a\nb"] {
            let g = NewGame {
                settlement: name.into(),
                ..NewGame::default()
            };
            assert!(g.validate().is_err(), "{name:?}");
        }
        let long = NewGame {
            settlement: "x".repeat(65),
            ..NewGame::default()
        };
        assert!(long.validate().is_err());
    }
}
