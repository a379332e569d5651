//! The rules' digest: one name for "the game a seed and commands are played in". Results of an
//! evaluation carry it, so two results files are compared only when their games follow the same
//! rules. It is the SHA-256 of the rules revision and of every data file the game embeds
//! (`data/*.json`), so editing a number in `data/` changes it by itself; a change in code that
//! changes what a seed and commands produce must bump [`RULES_REVISION`], which the test below
//! enforces: it plays a fixed game and compares the world's state hash with the one recorded for
//! the current revision.

use sha2::{Digest, Sha256};

/// Bumped whenever the game's code changes what a seed and the same commands produce (a rule, a
/// constant, the order of a system). Data-file edits need no bump: they are digested directly.
///
/// 3: issue 38's holes (carrying within the lifting limit with piles left at stumps, workshops
/// advancing tick by tick, builders taking on only a site's open hours, hunger slowing kits'
/// growth, berry bushes on the start's bank).
/// 4: issue 38's water buildings and ways (soil barriers close the ground to moisture and
/// contamination, aquifer drills on aquifer patches only, valves and fill valves, tunnels inside
/// the terrain, zipline cables, detonators through automation). A game that builds none of them
/// plays as under 3 (the reference hash is unchanged).
/// 5: a beaver keeps the part of a unit a meal or drink leaves over for its next, so beavers use
/// the catalogue's daily food and water (before, whatever a full need could not take of the last
/// unit was lost: 10-25% more water and food than `data/colony.json`'s source figures).
/// 6: a grown tree that died keeps its logs for the lumberjacks (`data/nature.json`
/// `deadTreesGiveLogs`, a source fact): they cut it like a living one, and the tree tallies,
/// clusters and reach counts count it as grown (before, only the `cutting` route gave its logs).
/// 7: trees and bushes spread only onto ground no building stands on (before, seedlings took
/// root on paths and under lodges and warehouses), and `path/place` refuses to end at a
/// doorstep that hangs over lower ground (before, it laid a path under the doorstep that never
/// joined the building, and `placement/find` offered such spots as joinable). A game that builds
/// nothing plays as under 6 (the reference hash is unchanged).
pub const RULES_REVISION: u32 = 7;

/// The state hash of the reference game (seed 5, Folktails, Normal, 64x64, 3 days, no commands)
/// under [`RULES_REVISION`]; see the test `the_reference_game_matches_the_rules_revision`.
/// Revision 3 (issue 38's holes) left it as it was: with no commands nobody cuts, gathers,
/// works a workshop or builds, and this seed's start already had its berry bushes. Revision 5
/// changed it: the founders eat and drink from the start.
pub const REFERENCE_STATE_HASH: u64 = 0xdf54_a4ca_6514_cce6;

/// Every data file the game embeds, by name.
const DATA: &[(&str, &str)] = &[
    (
        "buildings.json",
        include_str!("../../../data/buildings.json"),
    ),
    ("colony.json", include_str!("../../../data/colony.json")),
    ("goods.json", include_str!("../../../data/goods.json")),
    ("nature.json", include_str!("../../../data/nature.json")),
    ("needs.json", include_str!("../../../data/needs.json")),
    ("power.json", include_str!("../../../data/power.json")),
    ("world.json", include_str!("../../../data/world.json")),
];

/// The rules' digest, as lowercase hex.
pub fn rules_digest() -> String {
    let mut h = Sha256::new();
    h.update(format!("colony-rules revision {RULES_REVISION}\n").as_bytes());
    for (name, text) in DATA {
        h.update(format!("{name} {}\n", text.len()).as_bytes());
        h.update(text.as_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Faction, NewGame, World, ticks_per_day};

    #[test]
    fn the_digest_is_stable_hex_and_names_every_data_file() {
        let d = rules_digest();
        assert_eq!(d.len(), 64);
        assert!(d.chars().all(|c| c.is_ascii_hexdigit()));
        assert_eq!(d, rules_digest());
        let on_disk: Vec<String> =
            std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../data"))
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".json"))
                .collect();
        for name in on_disk {
            assert!(
                DATA.iter().any(|(n, _)| *n == name),
                "data/{name} is not in the rules digest: add it to DATA in sim/src/rules.rs"
            );
        }
    }

    #[test]
    fn the_reference_game_matches_the_rules_revision() {
        let mut w = World::new(&NewGame {
            seed: 5,
            faction: Faction::Folktails,
            map_width: 64,
            map_height: 64,
            ..NewGame::default()
        });
        w.advance_ticks(3 * ticks_per_day());
        let got = w.state_hash();
        assert_eq!(
            got, REFERENCE_STATE_HASH,
            "the reference game's state hash changed ({got:#018x}): the code now plays a seed \
             differently. If that is intended, bump RULES_REVISION in sim/src/rules.rs and set \
             REFERENCE_STATE_HASH to {got:#018x}; results made before are then no longer \
             comparable with new ones (colony eval compare refuses them)."
        );
    }
}
