//! Tool profiles (`colony mcp --tools core|all|NAME,NAME,...`): which tools a session lists and
//! may call. `core` (the default) is the composite tools and the reads and writes a turn needs;
//! `all` is every tool; a comma list names tools (and may name `core` to start from it). Every
//! tool list (the profile's and `tools/list`) puts the `core` tools first, so a client that
//! keeps only the first tools of `all` keeps the ones the prompt names.

use std::collections::HashSet;

/// The `core` profile, in the order `tools/list` shows it: the composite tools, then what the
/// `play_turn` prompt teaches and what an agent reads or changes nearly every turn.
pub const CORE: &[&str] = &[
    // Composite tools.
    "colony_overview",
    "map",
    "build",
    "advance",
    "wait_for_events",
    // Placing and building.
    "find_placement",
    "place_building",
    "place_path",
    "demolish_building",
    "list_prefabs",
    "unlock_building",
    // The colony (the overview gives science points and wellbeing; get_science and
    // list_beavers are in `all`).
    "list_buildings",
    "list_alerts",
    "set_workers",
    "set_priority",
    // Land (the map tool draws it; get_tiles, tile by tile and long, is in `all`).
    "find_tree_clusters",
    "find_food_clusters",
    "mark_trees_for_cutting",
    "find_planting_spots",
    "mark_planting",
    // The agent's side.
    "log_message",
];

/// The active profile: its label (`core`, `all`, or the comma list as given) and its tools in
/// `tools/list` order.
#[derive(Clone, Debug)]
pub struct Profile {
    pub label: String,
    names: Vec<&'static str>,
}

impl Profile {
    /// Parses `--tools`: `core`, `all`, or names separated by commas (`core` among them adds the
    /// core tools). `every` is every tool name in `all` order. Unknown names are refused with the
    /// valid ones.
    pub fn parse(spec: &str, every: &[&'static str]) -> Result<Profile, String> {
        let words: Vec<&str> = spec
            .split(',')
            .map(str::trim)
            .filter(|w| !w.is_empty())
            .collect();
        let mut wanted: HashSet<&'static str> = HashSet::new();
        let mut unknown = Vec::new();
        let mut any = false;
        for &word in &words {
            any = true;
            match word {
                "all" => wanted.extend(every.iter().copied()),
                "core" => wanted.extend(CORE.iter().copied()),
                w => match every.iter().find(|n| **n == w) {
                    Some(n) => {
                        wanted.insert(n);
                    }
                    None => unknown.push(w.to_owned()),
                },
            }
        }
        if !unknown.is_empty() || !any {
            let what = if any {
                format!(
                    "unknown tool{} {}",
                    if unknown.len() == 1 { "" } else { "s" },
                    unknown.join(", ")
                )
            } else {
                "no tools named".to_owned()
            };
            return Err(format!(
                "--tools: {what}; give core (the default), all, or tool names separated by \
                 commas. Tools: {}",
                every.join(", ")
            ));
        }
        Ok(Profile::of(&words.join(","), &wanted, every))
    }

    /// The profile of `wanted`, ordered core first, then the others in `every`'s order.
    fn of(label: &str, wanted: &HashSet<&'static str>, every: &[&'static str]) -> Profile {
        let names: Vec<&'static str> = ordered(every)
            .into_iter()
            .filter(|n| wanted.contains(n))
            .collect();
        Profile {
            label: label.to_owned(),
            names,
        }
    }

    /// Whether the profile has the tool.
    pub fn has(&self, name: &str) -> bool {
        self.names.contains(&name)
    }

    /// The tool names, in `tools/list` order.
    pub fn names(&self) -> &[&'static str] {
        &self.names
    }

    /// What a call to a tool outside the profile answers.
    pub fn refusal(&self, name: &str) -> String {
        format!(
            "{name} is not in this server's tool profile ({}, {} tools); start colony mcp with \
             --tools all, or --tools {},{name} to add it",
            self.label,
            self.names.len(),
            self.label
        )
    }
}

/// `every` with the core tools first (in `CORE`'s order), then the rest in `every`'s order.
pub fn ordered(every: &[&'static str]) -> Vec<&'static str> {
    CORE.iter()
        .copied()
        .filter(|c| every.contains(c))
        .chain(every.iter().copied().filter(|n| !CORE.contains(n)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every tool of a small catalogue: the core tools with one more among them.
    fn every() -> Vec<&'static str> {
        let mut v = CORE.to_vec();
        v.insert(5, "get_time");
        v
    }

    #[test]
    fn profiles_parse_and_order_core_first() {
        let core = Profile::parse("core", &every()).unwrap();
        assert_eq!(core.names(), CORE);
        assert!(!core.has("get_time"));
        let all = Profile::parse(" all ", &every()).unwrap();
        assert_eq!(all.names().len(), every().len());
        assert_eq!(&all.names()[..CORE.len()], CORE);
        assert_eq!(all.names().last(), Some(&"get_time"));
        let two = Profile::parse("get_time, advance", &every()).unwrap();
        assert_eq!(two.names(), ["advance", "get_time"]);
        assert_eq!(two.label, "get_time,advance");
        let more = Profile::parse("core,get_time", &every()).unwrap();
        assert_eq!(more.names().len(), CORE.len() + 1);
        assert!(more.refusal("x").contains("--tools core,get_time,x"));
        assert!(core.refusal("get_time").contains("(core, 21 tools)"));
    }

    #[test]
    fn unknown_names_are_refused_with_the_valid_ones() {
        let e = Profile::parse("get_time,teleport,fly", &every()).unwrap_err();
        assert!(e.contains("unknown tools teleport, fly"), "{e}");
        assert!(e.contains("Tools: colony_overview, map"), "{e}");
        assert!(
            Profile::parse(" , ", &every())
                .unwrap_err()
                .contains("no tools named")
        );
    }

    #[test]
    fn core_is_small() {
        // Issue 34: a client that keeps only the first tools of a long list loses the rest.
        assert!(CORE.len() <= 25);
    }
}
