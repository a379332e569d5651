//! `GET /api/summary`: the colony at a glance, built from one published snapshot. json: the
//! contract's Summary object (plus `projections`); toon: one flat row (see [`summary`] for each
//! key's definition).

use super::AppState;
use super::colony::Population;
use super::format::Format;
use super::game::{TimeResponse, WeatherResponse};
use super::land::{ClusterRow, cluster_rows};
use axum::extract::State;
use axum::http::Extensions;
use axum::response::Response;
use serde::Serialize;
use sim::colony::{DistrictView, SUMMARY_ROLES};
use sim::{Near, PlantTally, World};
use std::collections::BTreeMap;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(summary))
}

/// Clusters in the summary: within this Manhattan distance of the district center, at its level.
pub const CLUSTER_RADIUS: u32 = 40;

/// Goods the toon row always carries (0 when the colony has none), besides every good it holds.
pub(crate) const ALWAYS_LISTED: [&str; 4] = ["Water", "Log", "Plank", "Gear"];

/// `time`: the Time fields plus `speed`.
#[derive(Serialize, ToSchema)]
pub struct SummaryTime {
    #[serde(flatten)]
    pub clock: TimeResponse,
    /// 0 pause, 1 normal, 2 fast, 3 fastest.
    pub speed: u8,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Housing {
    pub occupied_beds: u32,
    pub total_beds: u32,
    /// Beavers without a home.
    pub homeless: u32,
}

#[derive(Serialize, ToSchema)]
pub struct Employment {
    /// Workers at unpaused workplaces.
    pub assigned: u32,
    /// Desired workers not yet assigned, at unpaused workplaces.
    pub vacancies: u32,
    /// Adults (and bots) without a workplace.
    pub unemployed: u32,
}

#[derive(Serialize, ToSchema)]
pub struct DistrictWellbeing {
    pub average: f64,
    /// Beavers below wellbeing 4.
    pub miserable: u32,
    /// Beavers with a critical need.
    pub critical: u32,
}

/// The district center: origin, orientation and doorstep.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Dc {
    pub x: u32,
    pub y: u32,
    pub z: u32,
    pub orientation: String,
    pub entrance_x: u32,
    pub entrance_y: u32,
}

#[derive(Serialize, ToSchema)]
pub struct DistrictSummary {
    pub name: String,
    pub population: Population,
    /// Good to total stock (`all`).
    pub resources: BTreeMap<String, u32>,
    pub housing: Housing,
    pub employment: Employment,
    pub wellbeing: DistrictWellbeing,
    pub dc: Dc,
}

impl From<DistrictView> for DistrictSummary {
    fn from(d: DistrictView) -> Self {
        DistrictSummary {
            population: Population::from(&d),
            resources: d
                .resources
                .iter()
                .map(|(g, (_, all))| (g.clone(), *all))
                .collect(),
            housing: Housing {
                occupied_beds: d.occupied_beds,
                total_beds: d.total_beds,
                homeless: d.homeless,
            },
            employment: Employment {
                assigned: d.assigned,
                vacancies: d.vacancies,
                unemployed: d.unemployed,
            },
            wellbeing: DistrictWellbeing {
                average: d.wellbeing_average,
                miserable: d.miserable,
                critical: d.critical,
            },
            dc: Dc {
                x: d.dc[0],
                y: d.dc[1],
                z: d.dc[2],
                orientation: d.dc_orientation,
                entrance_x: d.entrance[0],
                entrance_y: d.entrance[1],
            },
            name: d.name,
        }
    }
}

/// Trees of one species (alive only).
#[derive(Serialize, ToSchema, Default)]
#[serde(rename_all = "camelCase")]
pub struct TreeSpecies {
    pub name: String,
    pub marked_grown: u32,
    pub unmarked_grown: u32,
    /// Not yet grown, marked or not.
    pub seedling: u32,
}

/// Trees (living, and dead grown ones with their logs): grown and marked for cutting, seedlings
/// marked, grown and unmarked.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TreeSummary {
    pub marked_grown: u32,
    pub marked_seedling: u32,
    pub unmarked_grown: u32,
    pub species: Vec<TreeSpecies>,
}

#[derive(Serialize, ToSchema, Default)]
pub struct CropSpecies {
    pub name: String,
    pub ready: u32,
    pub growing: u32,
}

/// Living crops: grown (ready to harvest) and growing.
#[derive(Serialize, ToSchema)]
pub struct CropSummary {
    pub ready: u32,
    pub growing: u32,
    pub species: Vec<CropSpecies>,
}

#[derive(Serialize, ToSchema)]
pub struct Category {
    pub group: String,
    pub current: f64,
    pub max: f64,
}

#[derive(Serialize, ToSchema)]
pub struct WellbeingSummary {
    pub average: f64,
    pub miserable: u32,
    pub critical: u32,
    pub categories: Vec<Category>,
}

/// Alert counts by type.
#[derive(Serialize, ToSchema, Default)]
pub struct AlertCounts {
    pub unstaffed: u32,
    pub unpowered: u32,
    pub unreachable: u32,
}

/// How long stocks last (extension; -1 when nobody is there to use them).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Projections {
    /// Food stock (every good of category food) / (beavers × foodPerBeaverPerDay × the game
    /// mode's food consumption).
    pub food_days: f64,
    /// Water stock / (beavers × waterPerBeaverPerDay × the game mode's water consumption).
    pub water_days: f64,
    /// Days the log stock lasts at the last game day's use (logs used up by construction and
    /// workshops in the last 24 hours, `flows`); -1 when none were used.
    pub log_days: f64,
    /// As `logDays`, for planks.
    pub plank_days: f64,
    /// As `logDays`, for gears.
    pub gear_days: f64,
    /// Net change of the food stock per day (all foods, made minus eaten and spoilt), averaged
    /// over the last three days (`flows`); negative while it falls.
    pub food_net_per_day: f64,
    /// As `foodNetPerDay`, for water.
    pub water_net_per_day: f64,
    /// Days until the food runs out at `foodNetPerDay`, one decimal; -1 while the stock is not
    /// falling.
    pub food_days_at_net: f64,
    /// As `foodDaysAtNet`, for water.
    pub water_days_at_net: f64,
}

/// The Summary object.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SummaryJson {
    pub settlement: String,
    pub faction: String,
    pub time: SummaryTime,
    pub weather: WeatherResponse,
    pub districts: Vec<DistrictSummary>,
    pub trees: TreeSummary,
    pub crops: CropSummary,
    pub wellbeing: WellbeingSummary,
    pub science: u32,
    pub alerts: AlertCounts,
    /// Building counts by role: housing, wood, storage, power, food, water, others (paths not
    /// counted).
    pub buildings: BTreeMap<String, u32>,
    /// Top tree clusters within 40 tiles of the (first) district center, at its level.
    pub tree_clusters: Vec<ClusterRow>,
    pub food_clusters: Vec<ClusterRow>,
    pub projections: Projections,
    /// Extension: every good made or used in the last three days: `producedLastDay`,
    /// `consumedLastDay` (units over the last 24 game hours) and `netPerDay` (made minus used per
    /// day, averaged over the last 72 hours). json only; the toon row carries the food and
    /// water nets in the projections.
    #[schema(value_type = Object)]
    pub flows: BTreeMap<String, sim::history::Flow>,
    /// Extension: everyone has died (the game goes on with nobody in it until a new game or a
    /// load).
    pub game_over: bool,
    /// Colony-wide stock, good to total (the toon row's per-good keys; not in json).
    #[serde(skip)]
    pub stock: BTreeMap<String, u32>,
}

fn tree_summary(tallies: &BTreeMap<&str, PlantTally>) -> TreeSummary {
    let species: Vec<TreeSpecies> = tallies
        .iter()
        .map(|(name, t)| TreeSpecies {
            name: (*name).to_owned(),
            marked_grown: t.grown_marked,
            unmarked_grown: t.grown_unmarked,
            seedling: t.growing_marked + t.growing_unmarked,
        })
        .collect();
    TreeSummary {
        marked_grown: species.iter().map(|s| s.marked_grown).sum(),
        marked_seedling: tallies.values().map(|t| t.growing_marked).sum(),
        unmarked_grown: species.iter().map(|s| s.unmarked_grown).sum(),
        species,
    }
}

fn crop_summary(tallies: &BTreeMap<&str, PlantTally>) -> CropSummary {
    let species: Vec<CropSpecies> = tallies
        .iter()
        .map(|(name, t)| CropSpecies {
            name: (*name).to_owned(),
            ready: t.grown_marked + t.grown_unmarked,
            growing: t.growing_marked + t.growing_unmarked,
        })
        .collect();
    CropSummary {
        ready: species.iter().map(|s| s.ready).sum(),
        growing: species.iter().map(|s| s.growing).sum(),
        species,
    }
}

impl SummaryJson {
    /// Everything the summary shows, from one world.
    pub fn of(w: &World, format: Format) -> SummaryJson {
        // The colony's numbers in one walk over its beavers and one over its buildings.
        let colony = w.colony_summary();
        let districts: Vec<DistrictView> = colony.districts;
        let stock = colony.stock;
        let beavers = districts.iter().map(|d| d.adults + d.children).sum();
        let of = |g: &str| stock.get(g).copied().unwrap_or(0);
        // The same formula the hourly history records (`World::stock_days`).
        let (food_days, water_days) = w.stock_days(&stock, beavers);
        let flows = w.flows();
        let net = |pick: fn(&str) -> bool| -> f64 {
            let sum: f64 = flows
                .iter()
                .filter(|(g, _)| pick(g))
                .map(|(_, f)| f.net_per_day)
                .sum();
            (sum * 10.0).round() / 10.0
        };
        let (food_net, water_net) = (net(sim::colony::is_food), net(|g| g == "Water"));
        let food_stock: u32 = stock
            .iter()
            .filter(|(g, _)| sim::colony::is_food(g))
            .map(|(_, n)| *n)
            .sum();
        let at_net = |n: u32, net: f64| {
            if net < 0.0 {
                (f64::from(n) / -net * 10.0).round() / 10.0
            } else {
                -1.0
            }
        };
        // Building stock against the last day's use of it.
        let at_use = |g: &str| sim::history::days_at_use(&stock, &flows, g);
        let projections = Projections {
            food_days,
            water_days,
            log_days: at_use("Log"),
            plank_days: at_use("Plank"),
            gear_days: at_use("Gear"),
            food_net_per_day: food_net,
            water_net_per_day: water_net,
            food_days_at_net: at_net(food_stock, food_net),
            water_days_at_net: at_net(of("Water"), water_net),
        };
        let counted = w.alert_counts();
        let alerts = AlertCounts {
            unstaffed: counted.unstaffed,
            unpowered: counted.unpowered,
            unreachable: counted.unreachable,
        };
        // Clusters near the first district center only (none without one).
        let near = districts.first().map(|d| {
            let [x, y, z] = d.dc;
            Near {
                x,
                y,
                z,
                radius: CLUSTER_RADIUS,
            }
        });
        let plants = w.plant_summary(near);
        let (tree_clusters, food_clusters) = match near {
            Some(_) => (
                cluster_rows(plants.tree_clusters, format),
                cluster_rows(plants.food_clusters, format),
            ),
            None => (Vec::new(), Vec::new()),
        };
        SummaryJson {
            settlement: w.settlement().to_owned(),
            faction: w.faction().as_str().to_owned(),
            time: SummaryTime {
                clock: TimeResponse::of(w),
                speed: w.speed(),
            },
            weather: w.weather().into(),
            districts: districts.into_iter().map(DistrictSummary::from).collect(),
            trees: tree_summary(&plants.trees),
            crops: crop_summary(&plants.crops),
            wellbeing: WellbeingSummary {
                average: colony.average,
                miserable: colony.miserable,
                critical: colony.critical,
                categories: colony
                    .categories
                    .into_iter()
                    .map(|c| Category {
                        group: c.group.to_owned(),
                        current: c.current,
                        max: c.max,
                    })
                    .collect(),
            },
            science: w.science_points(),
            alerts,
            buildings: SUMMARY_ROLES
                .iter()
                .zip(colony.roles)
                .map(|(role, n)| ((*role).to_owned(), n))
                .collect(),
            tree_clusters,
            food_clusters,
            projections,
            flows,
            game_over: w.colony_game_over(),
            stock,
        }
    }

    /// The one flat toon row (keys in the contract's order), serialized straight from the
    /// summary: one JSON object, no map of cells built first.
    pub fn row(&self) -> ToonRow<'_> {
        ToonRow(self)
    }
}

/// The summary as its one flat toon row ([`SummaryJson::row`]).
pub struct ToonRow<'a>(&'a SummaryJson);

impl Serialize for ToonRow<'_> {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let s = self.0;
        let mut m = ser.serialize_map(None)?;
        m.serialize_entry("settlement", &s.settlement)?;
        m.serialize_entry("faction", &s.faction)?;
        m.serialize_entry("day", &s.time.clock.day_number)?;
        m.serialize_entry("dayProgress", &s.time.clock.day_progress)?;
        m.serialize_entry("speed", &s.time.speed)?;
        m.serialize_entry("cycle", &s.weather.cycle)?;
        m.serialize_entry("cycleDay", &s.weather.cycle_day)?;
        m.serialize_entry("isHazardous", &s.weather.is_hazardous)?;
        m.serialize_entry("tempDays", &s.weather.temperate_weather_duration)?;
        m.serialize_entry("hazardDays", &s.weather.hazardous_weather_duration)?;
        m.serialize_entry("markedGrown", &s.trees.marked_grown)?;
        m.serialize_entry("markedSeedling", &s.trees.marked_seedling)?;
        m.serialize_entry("unmarkedGrown", &s.trees.unmarked_grown)?;
        m.serialize_entry("cropReady", &s.crops.ready)?;
        m.serialize_entry("cropGrowing", &s.crops.growing)?;
        let ds = &s.districts;
        let sum = |f: fn(&DistrictSummary) -> u32| ds.iter().map(f).sum::<u32>();
        m.serialize_entry("adults", &sum(|d| d.population.adults))?;
        m.serialize_entry("children", &sum(|d| d.population.children))?;
        m.serialize_entry("bots", &sum(|d| d.population.bots))?;
        // Every good in stock, and always the listed ones, in name order.
        let mut goods: Vec<(&str, u32)> = s
            .stock
            .iter()
            .filter(|(g, n)| **n > 0 || ALWAYS_LISTED.contains(&g.as_str()))
            .map(|(g, n)| (g.as_str(), *n))
            .collect();
        for g in ALWAYS_LISTED {
            if !s.stock.contains_key(g) {
                goods.push((g, 0));
            }
        }
        goods.sort_unstable_by_key(|(g, _)| *g);
        for (g, n) in goods {
            m.serialize_entry(g, &n)?;
        }
        let p = &s.projections;
        m.serialize_entry("foodDays", &p.food_days)?;
        m.serialize_entry("waterDays", &p.water_days)?;
        m.serialize_entry("logDays", &p.log_days)?;
        m.serialize_entry("plankDays", &p.plank_days)?;
        m.serialize_entry("gearDays", &p.gear_days)?;
        m.serialize_entry("foodNetPerDay", &p.food_net_per_day)?;
        m.serialize_entry("waterNetPerDay", &p.water_net_per_day)?;
        m.serialize_entry("foodDaysAtNet", &p.food_days_at_net)?;
        m.serialize_entry("waterDaysAtNet", &p.water_days_at_net)?;
        let occupied = sum(|d| d.housing.occupied_beds);
        let beds = sum(|d| d.housing.total_beds);
        m.serialize_entry("beds", &format_args!("{occupied}/{beds}"))?;
        m.serialize_entry("homeless", &sum(|d| d.housing.homeless))?;
        let assigned = sum(|d| d.employment.assigned);
        let desired = assigned + sum(|d| d.employment.vacancies);
        m.serialize_entry("workers", &format_args!("{assigned}/{desired}"))?;
        m.serialize_entry("unemployed", &sum(|d| d.employment.unemployed))?;
        m.serialize_entry("wellbeing", &s.wellbeing.average)?;
        m.serialize_entry("miserable", &s.wellbeing.miserable)?;
        m.serialize_entry("critical", &s.wellbeing.critical)?;
        m.serialize_entry("science", &s.science)?;
        let a = &s.alerts;
        m.serialize_entry(
            "alerts",
            &format_args!(
                "unstaffed:{}/unpowered:{}/unreachable:{}",
                a.unstaffed, a.unpowered, a.unreachable
            ),
        )?;
        for (role, n) in &s.buildings {
            m.serialize_entry(role, n)?;
        }
        m.serialize_entry("treeClusters", &Clusters(&s.tree_clusters))?;
        m.serialize_entry("foodClusters", &Clusters(&s.food_clusters))?;
        // Extension, after the contract's keys.
        m.serialize_entry("gameOver", &s.game_over)?;
        m.end()
    }
}

/// Clusters as the toon row's text: `x,y,z:grown` items joined by `/`.
struct Clusters<'a>(&'a [ClusterRow]);

impl std::fmt::Display for Clusters<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, c) in self.0.iter().enumerate() {
            let sep = if i == 0 { "" } else { "/" };
            write!(f, "{sep}{},{},{}:{}", c.x, c.y, c.z, c.grown)?;
        }
        Ok(())
    }
}

impl Serialize for Clusters<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// The colony at a glance.
///
/// json: the Summary object: `settlement`, `faction`, `time` (Time fields plus `speed`),
/// `weather`, `districts` (population; `resources` good to total; `housing`; `employment`;
/// `wellbeing`; `dc` with its doorstep as `entranceX/Y`), `trees` (living and dead grown trees:
/// `markedGrown`, `markedSeedling`, `unmarkedGrown`, per species), `crops` (`ready` = grown,
/// `growing`),
/// `wellbeing` (colony-wide, with categories), `science` (points), `alerts` (counts by type),
/// `buildings` (counts by role), `treeClusters`/`foodClusters` (within 40 tiles of the first
/// district center, at its level), and `projections` (an extension, see below).
///
/// toon: one flat row. `day`, `dayProgress`, `speed`; `cycle`, `cycleDay`, `isHazardous`,
/// `tempDays` and `hazardDays` (this cycle's temperate and hazardous durations); tree and crop
/// counts as in json (`cropReady`, `cropGrowing`); `adults`, `children`, `bots` summed over
/// districts; one key per good (its colony-wide total) for every good in stock, and always
/// `Water`, `Log`, `Plank`, `Gear`; the projections; `beds` as `occupied/total`; `homeless`;
/// `workers` as `assigned/desired` (desired = assigned + vacancies); `unemployed`; `wellbeing`
/// (average), `miserable`, `critical`; `science`; `alerts` as
/// `unstaffed:N/unpowered:N/unreachable:N`; one key per building role; `treeClusters` and
/// `foodClusters` as `x,y,z:grown` items joined by `/`; then `gameOver` (extension).
///
/// Projections (days, one decimal, -1 when nobody is there): `foodDays` = food stock (goods of
/// category food) / (beavers × foodPerBeaverPerDay × the mode's food consumption); `waterDays`
/// likewise with water; `logDays`, `plankDays`, `gearDays` = days the stock lasts at the last
/// game day's use of it (-1 when none was used);
/// `foodNetPerDay`/`waterNetPerDay` = the stock's net change per day over the last three days,
/// and `foodDaysAtNet`/`waterDaysAtNet` = days until it runs out at that rate (-1 while not
/// falling). json also has `flows`: per good, made and used over the last day and the net per
/// day.
#[utoipa::path(get, path = "/api/summary", tag = "colony", responses((status = 200, body = SummaryJson)))]
async fn summary(State(state): State<AppState>, ext: Extensions) -> Response {
    let format = Format::of(&ext);
    let s = SummaryJson::of(&state.host.snapshot(), format);
    let mut out = Vec::with_capacity(4096);
    if format.is_json() {
        serde_json::to_writer(&mut out, &s)
    } else {
        serde_json::to_writer(&mut out, &s.row())
    }
    .expect("the summary serializes");
    super::list::json_response(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::rows::{Row, pairs_text};
    use serde_json::Value;

    /// The toon row as it was made before [`ToonRow`]: a map of cells from `Value`s (the
    /// reference the direct row is checked against).
    fn row_through_values(this: SummaryJson) -> Row {
        let s = this;
        let mut r = Row::new();
        let mut put = |k: &str, v: Value| {
            r.insert(k.to_owned(), v);
        };
        put("settlement", s.settlement.into());
        put("faction", s.faction.into());
        put("day", s.time.clock.day_number.into());
        put("dayProgress", s.time.clock.day_progress.into());
        put("speed", s.time.speed.into());
        put("cycle", s.weather.cycle.into());
        put("cycleDay", s.weather.cycle_day.into());
        put("isHazardous", s.weather.is_hazardous.into());
        put("tempDays", s.weather.temperate_weather_duration.into());
        put("hazardDays", s.weather.hazardous_weather_duration.into());
        put("markedGrown", s.trees.marked_grown.into());
        put("markedSeedling", s.trees.marked_seedling.into());
        put("unmarkedGrown", s.trees.unmarked_grown.into());
        put("cropReady", s.crops.ready.into());
        put("cropGrowing", s.crops.growing.into());
        let ds = &s.districts;
        let sum = |f: fn(&DistrictSummary) -> u32| ds.iter().map(f).sum::<u32>();
        put("adults", sum(|d| d.population.adults).into());
        put("children", sum(|d| d.population.children).into());
        put("bots", sum(|d| d.population.bots).into());
        let mut stock = s.stock;
        for g in ALWAYS_LISTED {
            stock.entry(g.to_owned()).or_insert(0);
        }
        for (g, n) in stock
            .into_iter()
            .filter(|(g, n)| *n > 0 || ALWAYS_LISTED.contains(&g.as_str()))
        {
            put(&g, n.into());
        }
        let p = &s.projections;
        put("foodDays", p.food_days.into());
        put("waterDays", p.water_days.into());
        put("logDays", p.log_days.into());
        put("plankDays", p.plank_days.into());
        put("gearDays", p.gear_days.into());
        put("foodNetPerDay", p.food_net_per_day.into());
        put("waterNetPerDay", p.water_net_per_day.into());
        put("foodDaysAtNet", p.food_days_at_net.into());
        put("waterDaysAtNet", p.water_days_at_net.into());
        let occupied = sum(|d| d.housing.occupied_beds);
        put(
            "beds",
            format!("{occupied}/{}", sum(|d| d.housing.total_beds)).into(),
        );
        put("homeless", sum(|d| d.housing.homeless).into());
        let assigned = sum(|d| d.employment.assigned);
        let desired = assigned + sum(|d| d.employment.vacancies);
        put("workers", format!("{assigned}/{desired}").into());
        put("unemployed", sum(|d| d.employment.unemployed).into());
        put("wellbeing", s.wellbeing.average.into());
        put("miserable", s.wellbeing.miserable.into());
        put("critical", s.wellbeing.critical.into());
        put("science", s.science.into());
        let a = &s.alerts;
        put(
            "alerts",
            pairs_text([
                ("unstaffed", a.unstaffed),
                ("unpowered", a.unpowered),
                ("unreachable", a.unreachable),
            ])
            .into(),
        );
        for (role, n) in &s.buildings {
            put(role, (*n).into());
        }
        let clusters = |cs: &[ClusterRow]| {
            cs.iter()
                .map(|c| format!("{},{},{}:{}", c.x, c.y, c.z, c.grown))
                .collect::<Vec<_>>()
                .join("/")
        };
        put("treeClusters", clusters(&s.tree_clusters).into());
        put("foodClusters", clusters(&s.food_clusters).into());
        // Extension, after the contract's keys.
        put("gameOver", s.game_over.into());
        r
    }

    #[test]
    fn the_direct_toon_row_is_the_row_of_values() {
        let mut w = sim::colony::fixtures::small_colony();
        for _ in 0..2 {
            for format in [Format::Toon, Format::Json] {
                let direct = serde_json::to_string(&SummaryJson::of(&w, format).row()).unwrap();
                let values = serde_json::to_value(row_through_values(SummaryJson::of(&w, format)));
                assert_eq!(direct, serde_json::to_string(&values.unwrap()).unwrap());
            }
            w.advance_ticks(5000);
        }
    }
}
