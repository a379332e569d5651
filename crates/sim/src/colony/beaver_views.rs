//! Read models of beavers and bots: each need on the served 0-1 scale ([`NeedView`]), the
//! beaver view ([`BeaverView`]) one at a time or for a page, and the keys lists filter by.

use serde::Serialize;

use super::beaver::{need_defs, tier_label};
use super::views::{ListKey, round3, served_points};
use crate::world::World;

/// One need of a beaver.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NeedView {
    pub id: &'static str,
    /// 0-1, higher is more satisfied: the game's own points (a range per need, such as -3..1 for
    /// Hunger and Thirst) scaled as `(points - min) / (max - min)`. 0 is the range's bottom, where
    /// Hunger and Thirst kill.
    pub points: f64,
    /// The served value at which the need turns favourable (the game's 0 on the same scale, e.g.
    /// 0.75 for Hunger and Thirst): above it the need adds wellbeing, at or below it it takes
    /// some, and a need with a critical state is then `critical`.
    pub threshold: f64,
    pub wellbeing: i32,
    pub favorable: bool,
    pub critical: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<&'static str>,
}

/// A beaver or bot as `/api/beavers` shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BeaverView {
    pub id: i32,
    pub name: String,
    pub x: u32,
    pub y: u32,
    pub z: u32,
    pub wellbeing: f64,
    pub tier: String,
    pub district: String,
    pub needs: Vec<NeedView>,
    pub any_critical: bool,
    /// Critical need ids.
    pub critical: Vec<String>,
    pub life_progress: f64,
    pub workplace: String,
    pub is_bot: bool,
    pub is_child: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub carrying: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub carry_amount: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lifting_capacity: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overburdened: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deterioration: Option<f64>,
    pub contaminated: bool,
    pub activity: String,
    pub has_home: bool,
}

impl World {
    /// A beaver as the beaver view; `full` lists every need with its group.
    pub fn beaver_view(&self, id: i32, full: bool) -> Option<BeaverView> {
        let b = self.colony.beavers.get(&id)?;
        let faction = self.faction;
        let defs = need_defs(faction, b.is_bot);
        let wb = b.wellbeing(faction);
        let mut needs = Vec::with_capacity(defs.len());
        let shown = defs
            .iter()
            .zip(&b.needs)
            .filter(|(d, p)| full || b.is_bot || d.group == "BasicNeeds" || **p > 0.0);
        needs.extend(shown.map(|(d, p)| NeedView {
            id: d.id.as_str(),
            points: round3(served_points(d, *p)),
            threshold: round3(served_points(d, 0.0)),
            wellbeing: if d.favorable_at(*p) {
                d.favorable
            } else {
                d.unfavorable
            } as i32,
            favorable: d.favorable_at(*p),
            critical: d.critical && !d.favorable_at(*p),
            group: full.then_some(d.group.as_str()),
        }));
        let critical: Vec<String> = b
            .critical_needs(faction)
            .into_iter()
            .map(str::to_owned)
            .collect();
        let pos = b.position(self.ticks);
        let cap = super::rules::colony_rules().hauling.lifting_capacity.value;
        let carried_weight = b.carrying.as_ref().map_or(0.0, |(g, n)| {
            crate::content::content()
                .goods
                .get(g)
                .and_then(|g| g.carry_weight)
                .unwrap_or(1.0)
                * f64::from(*n)
        });
        Some(BeaverView {
            id,
            name: b.name.clone(),
            x: pos[0],
            y: pos[1],
            z: pos[2],
            wellbeing: wb,
            tier: tier_label(wb).to_owned(),
            district: self.district_name(b.district),
            needs,
            any_critical: !critical.is_empty(),
            critical,
            life_progress: ((b.age_days / b.lifespan_days).clamp(0.0, 1.0) * 1000.0).round()
                / 1000.0,
            workplace: b
                .workplace
                .and_then(|w| self.colony.buildings.get(&w))
                .map(|w| w.spec().base_name.clone())
                .unwrap_or_default(),
            is_bot: b.is_bot,
            is_child: b.child,
            carrying: b.carrying.as_ref().map(|(g, _)| g.clone()),
            carry_amount: b.carrying.as_ref().map(|(_, n)| *n),
            lifting_capacity: full.then_some(cap),
            overburdened: full.then_some(carried_weight > f64::from(cap)),
            deterioration: b.is_bot.then_some(b.deterioration),
            contaminated: b.contaminated,
            activity: b
                .plan
                .front()
                .map_or_else(|| "idle".to_owned(), |s| s.activity()),
            has_home: b.home.is_some(),
        })
    }

    /// Every beaver and bot, in id order.
    pub fn beavers(&self, full: bool) -> Vec<BeaverView> {
        let ids: Vec<i32> = self.colony.beavers.keys().copied().collect();
        self.beavers_of(&ids, full)
    }

    /// What lists filter beavers and bots by (name and position now), in id order, without
    /// building any view.
    pub fn beaver_keys(&self) -> impl Iterator<Item = ListKey<'_>> {
        self.colony.beavers.iter().map(|(id, b)| {
            let [x, y, _] = b.position(self.ticks);
            ListKey {
                id: *id,
                name: &b.name,
                x,
                y,
            }
        })
    }

    /// The views of the beavers and bots `ids` (in that order; unknown ids are skipped).
    pub fn beavers_of(&self, ids: &[i32], full: bool) -> Vec<BeaverView> {
        // Sized up front, as `buildings_of`: a `filter_map` gives no lower bound.
        let mut views = Vec::with_capacity(ids.len());
        views.extend(ids.iter().filter_map(|id| self.beaver_view(*id, full)));
        views
    }
}
