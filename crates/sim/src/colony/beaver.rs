//! Beavers and bots: their state, their needs (defined per faction from `data/needs.json`),
//! wellbeing and the bonuses its tiers give.
//!
//! Needs are points in the catalogue's range; each decays (or recovers) by its `dailyDelta` spread
//! over the hours of the day. A need is favourable while its points are above 0 and then adds its
//! `favorableWellbeing`; otherwise it adds its `unfavorableWellbeing` (negative for basic needs).
//! A need with a critical state is critical while unfavourable. Hunger and Thirst kill at their
//! `lethal.diesAtPoints`. A need whose critical state `stopsWork` (bots' Energy and Biofuel) stops
//! its bearer working while unfavourable. Bots' goods needs name the good that restores them in
//! `data/colony.json` (`botNeedGoods`); their wellbeing gives the `botTiers` bonuses.

use std::collections::{BTreeMap, VecDeque};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::rules::{colony_rules, tier_bonus};
use crate::config::Faction;
use crate::content::{Need, content};

/// One need as the simulation uses it.
#[derive(Debug, Clone)]
pub struct NeedDef {
    /// The contract's id: the catalogue id without the `Bot.` prefix.
    pub id: String,
    pub group: String,
    pub daily_delta: f64,
    pub min: f64,
    pub max: f64,
    pub start: f64,
    pub favorable: f64,
    pub unfavorable: f64,
    pub critical: bool,
    /// Unfavourable, the need stops work (`critical.stopsWork`).
    pub stops_work: bool,
    pub dies_at: Option<f64>,
    /// No work while unfavourable (ailments).
    pub prevents_work: bool,
    /// Bonus deltas while unfavourable (`MovementSpeed`, `WorkingSpeed`, ...).
    pub penalties: BTreeMap<String, f64>,
    /// Bots: the good that restores the need and the points one unit gives.
    pub good: Option<(String, f64)>,
}

fn range_of(n: &Need) -> (f64, f64) {
    let r = n.range.as_ref();
    let get = |k: &str, d: f64| {
        r.and_then(|r| r.get(k))
            .and_then(|v| v.as_f64())
            .unwrap_or(d)
    };
    (get("min", 0.0), get("max", 1.0))
}

fn def_of(n: &Need, bot: bool) -> NeedDef {
    let (min, max) = range_of(n);
    NeedDef {
        id: n.id.trim_start_matches("Bot.").to_owned(),
        group: n.group.clone().unwrap_or_else(|| {
            if bot {
                "BasicNeeds".into()
            } else {
                "Other".into()
            }
        }),
        daily_delta: n.daily_delta.unwrap_or(0.0),
        min,
        max,
        // Without a catalogue starting value, basic needs (and bots' needs) start satisfied and
        // the others (nutrition, fun, social life, aesthetics, awe) start unmet.
        start: n
            .starting_value
            .unwrap_or(if bot || n.group.as_deref() == Some("BasicNeeds") {
                max
            } else {
                min
            })
            .clamp(min, max),
        favorable: n
            .favorable_wellbeing
            .or(n.bot_wellbeing_when_favorable)
            .unwrap_or(0.0),
        unfavorable: n.unfavorable_wellbeing.unwrap_or(0.0),
        critical: n.critical.is_some(),
        stops_work: n
            .critical
            .as_ref()
            .and_then(|c| c.get("stopsWork"))
            .and_then(|v| v.as_bool())
            .unwrap_or(false),
        dies_at: n
            .lethal
            .as_ref()
            .and_then(|l| l.get("diesAtPoints"))
            .and_then(|v| v.as_f64()),
        prevents_work: n.prevents_work.unwrap_or(false),
        penalties: n.penalties_while_unfavorable.clone().unwrap_or_default(),
        good: if bot {
            colony_rules()
                .colony
                .bot_need_goods
                .value
                .get(&n.id)
                .map(|g| (g.good.clone(), g.per_unit))
        } else {
            None
        },
    }
}

/// The need id of a bot (`bot`) or beaver that a catalogue need id names: bots' needs are the
/// `Bot.`-prefixed ones (without the prefix), beavers' the others.
pub fn need_id_for(bot: bool, catalogue_id: &str) -> Option<&str> {
    match catalogue_id.strip_prefix("Bot.") {
        Some(id) if bot => Some(id),
        None if !bot => Some(catalogue_id),
        _ => None,
    }
}

impl NeedDef {
    /// Whether `points` is favourable: above 0, or for ailment needs whose healthy top is 0
    /// (Injury, contamination, chipped teeth, stings), not below it.
    pub fn favorable_at(&self, points: f64) -> bool {
        if self.max <= 0.0 {
            points >= 0.0
        } else {
            points > 0.0
        }
    }
}

/// The needs of a faction's beavers (`bot = false`) or bots, in catalogue order.
pub fn need_defs(faction: Faction, bot: bool) -> &'static [NeedDef] {
    static TABLES: OnceLock<[Vec<NeedDef>; 4]> = OnceLock::new();
    let t = TABLES.get_or_init(|| {
        let c = content();
        let beavers = |f: &str| -> Vec<NeedDef> {
            c.beaver_needs
                .iter()
                .filter(|n| {
                    let fs = n.factions.as_deref().unwrap_or("both");
                    fs == "both" || fs == f
                })
                .map(|n| def_of(n, false))
                .collect()
        };
        let bots = |f: &str| -> Vec<NeedDef> {
            c.bot_needs
                .iter()
                .filter(|n| n.faction.as_deref().is_none_or(|x| x == f))
                .map(|n| def_of(n, true))
                .collect()
        };
        [
            beavers("Folktails"),
            bots("Folktails"),
            beavers("IronTeeth"),
            bots("IronTeeth"),
        ]
    });
    let i = match faction {
        Faction::Folktails => 0,
        Faction::IronTeeth => 2,
    } + usize::from(bot);
    &t[i]
}

/// The indexes in [`need_defs`] of the needs with a critical state (`critical: true`) and of
/// those that keep a beaver from work while unfavourable (`prevents_work`), per table (the
/// hourly and planning checks look at these few instead of every need).
fn flagged_needs(faction: Faction, bot: bool) -> &'static (Vec<usize>, Vec<usize>) {
    static TABLES: OnceLock<[(Vec<usize>, Vec<usize>); 4]> = OnceLock::new();
    let t = TABLES.get_or_init(|| {
        let of = |faction, bot| {
            let defs = need_defs(faction, bot);
            let pick = |f: fn(&NeedDef) -> bool| (0..defs.len()).filter(|i| f(&defs[*i])).collect();
            (pick(|d| d.critical), pick(|d| d.prevents_work))
        };
        [
            of(Faction::Folktails, false),
            of(Faction::Folktails, true),
            of(Faction::IronTeeth, false),
            of(Faction::IronTeeth, true),
        ]
    });
    let i = match faction {
        Faction::Folktails => 0,
        Faction::IronTeeth => 2,
    } + usize::from(bot);
    &t[i]
}

/// Index of a need in a faction's table.
pub fn need_index(faction: Faction, bot: bool, id: &str) -> Option<usize> {
    need_defs(faction, bot).iter().position(|d| d.id == id)
}

/// One step of a beaver's plan (see `behave`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "camelCase")]
pub enum Step {
    /// Walk to a tile.
    Walk {
        x: u32,
        y: u32,
        z: u32,
    },
    /// Work a shift at the workplace.
    Work {
        building: i32,
        hours: f64,
    },
    /// Build at a construction site.
    Build {
        site: i32,
        hours: f64,
    },
    /// Take reserved goods from a building (bound for `to`).
    Pickup {
        from: i32,
        to: i32,
        good: String,
        amount: u32,
    },
    /// Hand carried goods to a building (`amount` units were reserved there as incoming; 0 for
    /// a worker bringing its yield to its own workplace).
    Deliver {
        to: i32,
        good: String,
        amount: u32,
    },
    /// Eat or drink a good from a building.
    Consume {
        building: i32,
        good: String,
    },
    /// Sleep until the given tick (at home when `home` is set).
    Sleep {
        home: Option<i32>,
        until: u64,
    },
    /// Spend time at an attraction.
    Visit {
        building: i32,
        need: String,
        hours: f64,
    },
    /// Work on a plant or ruin in a workplace's range.
    Cut {
        plant: i32,
    },
    Gather {
        plant: i32,
    },
    Harvest {
        plant: i32,
    },
    Plant {
        x: u32,
        y: u32,
        species: String,
    },
    Scavenge {
        ruin: i32,
    },
    /// Take a load from a pile of goods left on a tile (see `piles`).
    Collect {
        pile: i32,
        good: String,
    },
    /// Stand a while.
    Idle {
        hours: f64,
    },
    /// Bots: recharge a need at a station (it rises each hour while the station is powered).
    Charge {
        building: i32,
        need: String,
        hours: f64,
    },
    /// Bots: stand still because a need that stops work is unmet and nothing can restore it.
    Stopped {
        need: String,
        hours: f64,
    },
}

impl Step {
    /// The activity text shown while the step runs.
    pub fn activity(&self) -> String {
        match self {
            Step::Walk { .. } => "walking".into(),
            Step::Work { .. } => "working".into(),
            Step::Build { .. } => "building".into(),
            Step::Pickup { good, .. } => format!("fetching {good}"),
            Step::Deliver { .. } => "delivering".into(),
            Step::Consume { good, .. } if good == "Water" => "drinking".into(),
            Step::Consume { good, .. }
                if content()
                    .goods
                    .get(good)
                    .is_some_and(|g| g.category == "food") =>
            {
                format!("eating {good}")
            }
            Step::Consume { good, .. } => format!("refuelling with {good}"),
            Step::Sleep { home: Some(_), .. } => "sleeping at home".into(),
            Step::Sleep { home: None, .. } => "sleeping outdoors".into(),
            Step::Visit { need, .. } => format!("visiting ({need})"),
            Step::Cut { .. } => "cutting a tree".into(),
            Step::Gather { .. } => "gathering".into(),
            Step::Harvest { .. } => "harvesting".into(),
            Step::Plant { species, .. } => format!("planting {species}"),
            Step::Scavenge { .. } => "scavenging".into(),
            Step::Collect { good, .. } => format!("collecting {good}"),
            Step::Idle { .. } => "idle".into(),
            Step::Charge { need, .. } => format!("recharging ({need})"),
            Step::Stopped { need, .. } => format!("stopped: out of {need}"),
        }
    }
}

/// A beaver or bot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Beaver {
    pub name: String,
    pub is_bot: bool,
    pub child: bool,
    pub age_days: f64,
    pub lifespan_days: f64,
    /// Children: 0-1 towards adulthood.
    pub growth: f64,
    /// Need points, aligned with [`need_defs`] of the colony's faction.
    pub needs: Vec<f64>,
    /// Where the current walk started (or where it stands).
    pub from: [u32; 3],
    /// Where it is heading (equal to `from` when standing).
    pub to: [u32; 3],
    pub depart: u64,
    pub arrive: u64,
    pub home: Option<i32>,
    pub workplace: Option<i32>,
    pub district: Option<i32>,
    pub plan: VecDeque<Step>,
    /// Tick the first step of the plan ends (0: not started).
    pub step_until: u64,
    pub carrying: Option<(String, u32)>,
    pub contaminated: bool,
    /// Bots: 0-1 wear.
    pub deterioration: f64,
    /// Day of the last breeding roll.
    pub last_roll_day: u32,
    /// Tick of the last cure dose (Antidote); 0 before any.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub last_dose: u64,
    /// Children: the needs' GrowthSpeed penalties summed hour by hour since the last dawn, over
    /// 24 (the day's mean penalty, applied to growth at dawn).
    #[serde(default, skip_serializing_if = "is_zero_f64")]
    pub growth_penalty: f64,
    /// What is left of the last unit it ate or drank, per need (aligned with `needs`; empty until
    /// the first meal): goods are taken from a store in whole units, and a beaver that fills a
    /// need with part of one keeps the rest for its next meal (`World::consume`), so it eats and
    /// drinks the catalogue's daily amounts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spare: Vec<f64>,
}

fn is_zero_f64(v: &f64) -> bool {
    *v == 0.0
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

impl Beaver {
    /// Where it is at tick `now` (walking beavers are between `from` and `to`).
    pub fn position(&self, now: u64) -> [u32; 3] {
        if now >= self.arrive || self.arrive <= self.depart {
            return self.to;
        }
        let f = (now - self.depart) as f64 / (self.arrive - self.depart) as f64;
        let lerp =
            |a: u32, b: u32| (f64::from(a) + (f64::from(b) - f64::from(a)) * f).round() as u32;
        [
            lerp(self.from[0], self.to[0]),
            lerp(self.from[1], self.to[1]),
            if f < 0.5 { self.from[2] } else { self.to[2] },
        ]
    }

    /// Sum of the needs' wellbeing contributions.
    pub fn wellbeing(&self, faction: Faction) -> f64 {
        need_defs(faction, self.is_bot)
            .iter()
            .zip(&self.needs)
            .map(|(d, p)| {
                if d.favorable_at(*p) {
                    d.favorable
                } else {
                    d.unfavorable
                }
            })
            .sum()
    }

    /// Whether a need with a critical state is unfavourable.
    pub fn critical_needs(&self, faction: Faction) -> Vec<&'static str> {
        let defs = need_defs(faction, self.is_bot);
        self.unfavourable(defs, &flagged_needs(faction, self.is_bot).0)
            .map(|i| defs[i].id.as_str())
            .collect()
    }

    /// Of the needs `indexes` of the table `defs` (this beaver's), those now unfavourable.
    fn unfavourable<'a>(
        &'a self,
        defs: &'static [NeedDef],
        indexes: &'a [usize],
    ) -> impl Iterator<Item = usize> + 'a {
        indexes.iter().copied().filter(move |i| {
            self.needs
                .get(*i)
                .is_some_and(|p| !defs[*i].favorable_at(*p))
        })
    }

    /// Whether [`Beaver::critical_needs`] is not empty (without listing them).
    pub fn any_critical(&self, faction: Faction) -> bool {
        self.unfavourable(
            need_defs(faction, self.is_bot),
            &flagged_needs(faction, self.is_bot).0,
        )
        .next()
        .is_some()
    }

    /// The first need that stops work and is unfavourable (the bot does not work), if any.
    pub fn stopped_by(&self, faction: Faction) -> Option<&'static str> {
        need_defs(faction, self.is_bot)
            .iter()
            .zip(&self.needs)
            .find(|(d, p)| d.stops_work && !d.favorable_at(**p))
            .map(|(d, _)| d.id.as_str())
    }

    pub fn need(&self, faction: Faction, id: &str) -> Option<f64> {
        need_index(faction, self.is_bot, id).map(|i| self.needs[i])
    }

    pub fn set_need(&mut self, faction: Faction, id: &str, f: impl FnOnce(f64) -> f64) {
        if let Some(i) = need_index(faction, self.is_bot, id) {
            let d = &need_defs(faction, self.is_bot)[i];
            self.needs[i] = f(self.needs[i]).clamp(d.min, d.max);
        }
    }

    /// Whether an ailment keeps it from work and hauling (a need marked `preventsWork` is
    /// unfavourable).
    pub fn kept_from_work(&self, faction: Faction) -> bool {
        !self.is_bot
            && self
                .unfavourable(need_defs(faction, false), &flagged_needs(faction, false).1)
                .next()
                .is_some()
    }

    /// The summed penalty of unfavourable needs for a bonus key (beavers only).
    pub(crate) fn penalty(&self, faction: Faction, key: &str) -> f64 {
        if self.is_bot {
            0.0
        } else {
            super::ailments::penalty(faction, &self.needs, key)
        }
    }

    /// Working speed multiplier: base 1 plus the wellbeing tier bonus (bots: the bot tiers),
    /// plus the catalogue's penalties of unfavourable needs (Hunger: -0.5).
    pub fn working_speed(&self, faction: Faction) -> f64 {
        let w = &colony_rules().wellbeing;
        let table = if self.is_bot {
            &w.bot_tiers.value.working_speed
        } else {
            &w.adult_tiers.value.working_speed
        };
        let m = 1.0
            + tier_bonus(table, self.wellbeing(faction))
            + self.penalty(faction, "WorkingSpeed");
        m.clamp(0.05, 10.0)
    }

    /// Walking speed in tiles per tick.
    pub fn tiles_per_tick(&self, faction: Faction) -> f64 {
        let r = colony_rules();
        let mv = &r.movement;
        let base = if self.is_bot {
            mv.bot_walk_speed.value
        } else if self.child {
            mv.child_walk_speed.value
        } else {
            mv.adult_walk_speed.value
        };
        let base = if self.carrying.is_some() {
            base.min(mv.carrying_slowdown.value.speed_while_carrying)
        } else {
            base
        };
        let table = if self.is_bot {
            &r.wellbeing.bot_tiers.value.movement_speed
        } else {
            &r.wellbeing.adult_tiers.value.movement_speed
        };
        let m = 1.0
            + tier_bonus(table, self.wellbeing(faction))
            + self.penalty(faction, "MovementSpeed");
        // Tiles per second at 1x, times the real seconds one tick lasts at 1x.
        base * m.clamp(0.25, 2.0) * crate::clock::real_seconds_per_tick_at_1x()
    }
}

/// The tier label of a wellbeing score (the contract's toon `tier`).
pub fn tier_label(wellbeing: f64) -> &'static str {
    if wellbeing >= 16.0 {
        "ecstatic"
    } else if wellbeing >= 12.0 {
        "happy"
    } else if wellbeing >= 8.0 {
        "okay"
    } else if wellbeing >= 4.0 {
        "unhappy"
    } else {
        "miserable"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faction_need_tables() {
        let f = need_defs(Faction::Folktails, false);
        assert!(
            f.iter()
                .any(|d| d.id == "Thirst" && d.dies_at == Some(-3.0))
        );
        assert!(f.iter().all(|d| d.id != "Kohlrabi"));
        let bots = need_defs(Faction::IronTeeth, true);
        let ids: Vec<&str> = bots.iter().map(|d| d.id.as_str()).collect();
        assert_eq!(ids, ["Energy", "ControlTower", "Grease"]);
        assert!(bots[0].stops_work && !bots[2].stops_work);
        assert_eq!(bots[2].good, Some(("Grease".to_owned(), 0.5)));
        let tails = need_defs(Faction::Folktails, true);
        assert!(tails.iter().all(|d| d.good.is_some()));
        assert!(tails[0].id == "Biofuel" && tails[0].stops_work);
        assert_eq!(need_id_for(true, "Bot.Energy"), Some("Energy"));
        assert_eq!(need_id_for(false, "Bot.Energy"), None);
        assert_eq!(need_id_for(true, "Beauty"), None);
        assert_eq!(need_id_for(false, "Beauty"), Some("Beauty"));
        assert_eq!(tier_label(12.0), "happy");
        assert_eq!(tier_label(3.9), "miserable");
    }

    #[test]
    fn the_flagged_needs_answer_as_a_walk_of_every_need() {
        // `critical_needs`, `any_critical` and `kept_from_work` look at the needs flagged
        // critical or work-preventing only: the same answers as a walk of every need.
        for faction in Faction::ALL {
            let mut w = crate::world::World::new(&crate::config::NewGame {
                faction,
                ..Default::default()
            });
            let at = w.colony.beavers.values().next().expect("a beaver").to;
            w.spawn_bot(at, None);
            let mut seen = [0usize; 2];
            for b in w.colony.beavers.values() {
                let defs = need_defs(faction, b.is_bot);
                for round in 0..200u64 {
                    let mut b = b.clone();
                    for (k, (p, d)) in b.needs.iter_mut().zip(defs).enumerate() {
                        // Values over the whole range, 0 (the favourable edge) among them.
                        let r = (round * 31 + k as u64 * 17) % 7;
                        *p = [d.min, -1.0, -0.01, 0.0, 0.01, 0.5, d.max][r as usize];
                    }
                    let unfavourable = |f: fn(&NeedDef) -> bool| -> Vec<&str> {
                        defs.iter()
                            .zip(&b.needs)
                            .filter(|(d, p)| f(d) && !d.favorable_at(**p))
                            .map(|(d, _)| d.id.as_str())
                            .collect()
                    };
                    let critical = unfavourable(|d| d.critical);
                    assert_eq!(b.critical_needs(faction), critical);
                    assert_eq!(b.any_critical(faction), !critical.is_empty());
                    let kept = !b.is_bot && !unfavourable(|d| d.prevents_work).is_empty();
                    assert_eq!(b.kept_from_work(faction), kept);
                    seen[usize::from(kept)] += 1;
                }
            }
            assert!(seen[0] > 0 && seen[1] > 0, "both answers met: {seen:?}");
        }
    }
}
