//! Achievements, Crafter-style: milestones checked over every episode's history, whatever the
//! scenario. A run's overall score is the geometric mean of their success rates (see `score`).

use crate::history::Row;
use crate::metrics::Outcome;

/// One achievement: a stable id, what it means, and its test over an episode.
pub struct Achievement {
    pub id: &'static str,
    pub title: &'static str,
    pub test: fn(&Outcome) -> bool,
}

fn any(o: &Outcome, f: impl Fn(&Row) -> bool) -> bool {
    o.rows.iter().any(f)
}

fn produced(o: &Outcome, goods: &[&str]) -> bool {
    any(o, |r| {
        goods
            .iter()
            .any(|g| r.produced.get(*g).is_some_and(|n| *n > 0.0))
    })
}

/// Goods that come from a harvest (crops, berries and other plants gathered or farmed).
const HARVESTS: &[&str] = &[
    "Berries",
    "Carrot",
    "SunflowerSeeds",
    "Kohlrabi",
    "MangroveFruit",
    "Potato",
    "Wheat",
    "CattailRoot",
    "Spadderdock",
    "Chestnut",
    "Dandelion",
    "Cassava",
    "Soybean",
    "CanolaSeeds",
    "Corn",
    "Eggplant",
    "Mushroom",
    "Algae",
    "CoffeeBean",
];

/// Cooked or processed food.
const COOKED: &[&str] = &[
    "GrilledPotato",
    "GrilledChestnut",
    "GrilledSpadderdock",
    "Bread",
    "CattailCracker",
    "MaplePastry",
    "FermentedCassava",
    "FermentedSoybean",
    "FermentedMushroom",
    "CornRation",
    "EggplantRation",
    "AlgaeRation",
];

/// Whether the colony once held 10 days of a store, more than it started with (a scenario's
/// starting stores do not count).
fn stored_up(o: &Outcome, days: fn(&Row) -> f64) -> bool {
    let start = o.rows.first().map_or(0.0, days);
    any(o, |r| r.beavers() > 0 && days(r) >= 10.0 && days(r) > start)
}

/// Whether the colony went `days` whole days with someone alive and nobody dying.
fn no_deaths_for(o: &Outcome, days: u32) -> bool {
    let need = days as usize * 24;
    let mut run = 0usize;
    for r in &o.rows {
        if r.population() > 0 && r.deaths_total() == 0 {
            run += 1;
            if run >= need {
                return true;
            }
        } else {
            run = 0;
        }
    }
    false
}

/// Every achievement, in the order reports show them.
pub const ALL: &[Achievement] = &[
    Achievement {
        id: "first-water",
        title: "First water pumped",
        test: |o| produced(o, &["Water"]),
    },
    Achievement {
        id: "first-log",
        title: "First tree cut",
        test: |o| produced(o, &["Log"]),
    },
    Achievement {
        id: "first-harvest",
        title: "First harvest (berries or a crop)",
        test: |o| produced(o, HARVESTS),
    },
    Achievement {
        id: "first-plank",
        title: "First plank",
        test: |o| produced(o, &["Plank"]),
    },
    Achievement {
        id: "first-gear",
        title: "First gear",
        test: |o| produced(o, &["Gear"]),
    },
    Achievement {
        id: "first-cooked-food",
        title: "First cooked or processed food",
        test: |o| produced(o, COOKED),
    },
    Achievement {
        id: "first-science",
        title: "First science point",
        test: |o| any(o, |r| r.science_earned > 0.0),
    },
    Achievement {
        id: "first-unlock",
        title: "First building unlocked (beyond a scenario's own unlocks)",
        test: |o| {
            let start = o.rows.first().map_or(0, |r| r.unlocked);
            any(o, |r| r.unlocked > start)
        },
    },
    Achievement {
        id: "first-home",
        title: "First home finished",
        test: |o| any(o, |r| r.buildings.get("housing").is_some_and(|n| *n > 0)),
    },
    Achievement {
        id: "first-birth",
        title: "First birth",
        test: |o| any(o, |r| r.births > 0),
    },
    Achievement {
        id: "first-power",
        title: "First power network with supply",
        test: |o| any(o, |r| r.power_networks > 0),
    },
    Achievement {
        id: "first-bot",
        title: "First bot",
        test: |o| any(o, |r| r.bots > 0),
    },
    Achievement {
        id: "second-district",
        title: "A second district",
        test: |o| any(o, |r| r.districts >= 2),
    },
    Achievement {
        id: "builder-25",
        title: "25 buildings finished at once (paths aside)",
        test: |o| any(o, |r| r.buildings.values().sum::<u32>() >= 25),
    },
    Achievement {
        id: "survive-drought",
        title: "Survived a drought",
        test: |o| o.hazards_survived("drought") > 0,
    },
    Achievement {
        id: "survive-badtide",
        title: "Survived a badtide",
        test: |o| o.hazards_survived("badtide") > 0,
    },
    Achievement {
        id: "water-10-days",
        title: "10 days of water in store (more than at the start)",
        test: |o| stored_up(o, |r| r.water_days),
    },
    Achievement {
        id: "food-10-days",
        title: "10 days of food in store (more than at the start)",
        test: |o| stored_up(o, |r| r.food_days),
    },
    Achievement {
        id: "beavers-20",
        title: "20 beavers",
        test: |o| any(o, |r| r.beavers() >= 20),
    },
    Achievement {
        id: "beavers-50",
        title: "50 beavers",
        test: |o| any(o, |r| r.beavers() >= 50),
    },
    Achievement {
        id: "beavers-100",
        title: "100 beavers",
        test: |o| any(o, |r| r.beavers() >= 100),
    },
    Achievement {
        id: "no-deaths-30-days",
        title: "30 days without a death",
        test: |o| no_deaths_for(o, 30),
    },
    Achievement {
        id: "nobody-miserable-10-days",
        title: "10 days in a row with 10+ beavers and nobody miserable",
        test: |o| {
            let mut run = 0;
            o.rows.iter().any(|r| {
                run = if r.beavers() >= 10 && r.miserable == 0 {
                    run + 1
                } else {
                    0
                };
                run >= 240
            })
        },
    },
    Achievement {
        id: "alive-60-days",
        title: "Alive on day 60",
        test: |o| any(o, |r| r.day >= 60 && r.population() > 0),
    },
];

/// The achievement of an id.
pub fn find(id: &str) -> Option<&'static Achievement> {
    ALL.iter().find(|a| a.id == id)
}

/// The ids an episode unlocked, in [`ALL`]'s order.
pub fn unlocked(o: &Outcome) -> Vec<&'static str> {
    ALL.iter().filter(|a| (a.test)(o)).map(|a| a.id).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::tests::row;

    fn outcome(rows: Vec<Row>) -> Outcome {
        Outcome {
            rows,
            ..Outcome::default()
        }
    }

    #[test]
    fn there_are_at_least_twenty_with_unique_ids() {
        assert!(ALL.len() >= 20);
        let mut ids: Vec<_> = ALL.iter().map(|a| a.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), ALL.len());
    }

    #[test]
    fn an_empty_or_idle_history_unlocks_nothing() {
        assert!(unlocked(&Outcome::default()).is_empty());
        let rows = (5..20).map(|h| row(1, h, 12)).collect();
        assert!(unlocked(&outcome(rows)).is_empty());
    }

    #[test]
    fn milestones_unlock_from_the_rows() {
        let mut rows: Vec<Row> = (0..6).map(|h| row(2, h, 12)).collect();
        rows[0].produced.insert("Water".into(), 3.0);
        rows[1].produced.insert("Carrot".into(), 1.0);
        rows[2].births = 1;
        rows[2].buildings.insert("housing".into(), 1);
        rows[3].weather = "drought".into();
        rows[4].unlocked = 1;
        rows[5].water_days = 12.0;
        let got = unlocked(&outcome(rows));
        assert_eq!(
            got,
            vec![
                "first-water",
                "first-harvest",
                "first-unlock",
                "first-home",
                "first-birth",
                "survive-drought",
                "water-10-days"
            ]
        );
    }

    #[test]
    fn a_scenarios_own_start_earns_nothing() {
        // A setup with unlocks and 12 days of water: idle rows keep them, or lose them.
        let mut rows: Vec<Row> = (0..5).map(|h| row(1, 5 + h, 12)).collect();
        for (i, r) in rows.iter_mut().enumerate() {
            r.unlocked = 3;
            r.water_days = 12.0 - i as f64;
        }
        assert!(unlocked(&outcome(rows.clone())).is_empty());
        rows[4].unlocked = 4;
        rows[4].water_days = 12.5;
        assert_eq!(
            unlocked(&outcome(rows)),
            vec!["first-unlock", "water-10-days"]
        );
    }

    #[test]
    fn a_drought_that_kills_everyone_is_not_survived() {
        let mut rows = vec![row(2, 0, 5), row(2, 1, 0)];
        rows[0].weather = "drought".into();
        assert!(!unlocked(&outcome(rows)).contains(&"survive-drought"));
    }

    #[test]
    fn thirty_days_without_deaths_needs_720_quiet_hours() {
        let rows: Vec<Row> = (0..720).map(|i| row(2 + i / 24, i % 24, 4)).collect();
        assert!(unlocked(&outcome(rows.clone())).contains(&"no-deaths-30-days"));
        let mut broken = rows;
        broken[400].deaths.insert("Hunger".into(), 1);
        assert!(!unlocked(&outcome(broken)).contains(&"no-deaths-30-days"));
    }
}
