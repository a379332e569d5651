//! Automation: signal devices (sensors, counters, a power meter, a chronometer, levers), relays
//! and memory cells wired to each other and to the buildings they drive.
//!
//! Rules (the game's where public sources tell; the rest are the project's choices):
//! - **Signals** are `On`, `Off` or `Error`. Every finished device has one output, evaluated each
//!   tick; construction sites give `Off`.
//! - **Transmitters** (link sources) are the devices: `DepthSensor` (water depth on its tile),
//!   `ContaminationSensor` (badwater share 0-1 on its tile), `FlowSensor` (m3/s flowing through
//!   its tile, as water wheels measure it), each compared with `threshold` by `mode`;
//!   `ResourceCounter` (its district's stock of `goodId` against `threshold`, with
//!   `includeInputs` counting the units waiting in workplaces too, or in `FillRate` mode the share
//!   of the district's storage for that good that is full against `fillRateThreshold`; `Error`
//!   without a good or a district); `PopulationCounter` (its district's or, with `globalMode`,
//!   the colony's beavers and/or bots: `mode` Total, Adults, Children, Homeless or Unemployed,
//!   against `threshold`); `PowerMeter` (its power network's supply in hp against `intThreshold`,
//!   or in `Percent` mode the load, demand / supply x 100 (100 with demand and no supply), against
//!   `percentThreshold`); `Chronometer` (`TimeRange` from `startTime` to `endTime` hours, wrapping
//!   past midnight, or `WorkingHours` / `NonWorkingHours`); `Lever` (`on`, an extension property;
//!   with `springReturn` it falls back to off after one tick); and relays and memory cells.
//!   Sensors stand in water (the game places them on the water they measure).
//! - **Relays** take inputs `a`-`h` (linking past the last input adds it, the letters skipped stay
//!   empty): `Not` and `Passthrough` read `a` only (b-h are refused in those modes); `And`, `Or`
//!   and `Xor` (odd number of `On`) read every linked input. No input, or any input in `Error`,
//!   gives `Error`.
//! - **Memory cells** take `a`, `b` and `reset`; `reset` On clears them first. `SetReset`: `a` On
//!   sets. `Toggle`: `a` turning On flips. `Latch`: while `b` is On the cell follows `a`.
//!   `FlipFlop`: when `b` turns On the cell stores `a`. `b` is refused in SetReset and Toggle
//!   modes and needed in Latch and FlipFlop. A missing `a` (or needed `b`) or an input in `Error`
//!   gives `Error` (the stored bit is kept for when the inputs recover).
//! - **Automated buildings** (one input, always reported as `a`): floodgates (`On` closes the gate
//!   to its full height, `Off` opens it to 0), clutches (`On` engages, `Off` disengages), valves
//!   and fill valves (`On` opens, `Off` closes), the indicator (shows its input), and every
//!   pausable building (`Off` pauses it, `On` resumes
//!   it). They act when their input changes (and when first linked), so a player's own setting
//!   holds until the signal next changes; `Error` changes nothing. A finished detonator acts
//!   only on a rising signal (its input going from `Off` to `On`; not when first linked to a
//!   source already on): it fires every finished charge within its reach
//!   (`World::detonate_from`).
//! - **Order.** Each tick, after power and before the colony, devices are evaluated in links
//!   order (a source before what it feeds; ties by building id). Parts of a cycle come last, in
//!   id order, each reading what its sources hold at that moment (this tick's output if already
//!   evaluated, else last tick's): deterministic, and a cycle of an odd number of `Not` relays
//!   oscillates tick by tick.
//! - **State** (saved): each device's output and configuration, the inputs of relays, memory
//!   cells and automated buildings, the memory bits and last inputs, what each automated building
//!   last applied. Links to buildings that are gone are dropped.

mod config;
mod eval;
/// An input name as given (trimmed; `a` when empty or absent) and its lower-case key.
fn input_name(input: Option<&str>) -> (&str, String) {
    let given = input
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .unwrap_or("a");
    (given, given.to_ascii_lowercase())
}

#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::colony::building::Building;
use crate::content::{Building as Spec, content};
use crate::error::{CommandError, ErrorCode};
use crate::world::World;

/// A signal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Signal {
    On,
    #[default]
    Off,
    Error,
}

impl Signal {
    pub fn as_str(self) -> &'static str {
        match self {
            Signal::On => "On",
            Signal::Off => "Off",
            Signal::Error => "Error",
        }
    }

    pub(crate) fn of(on: bool) -> Signal {
        if on { Signal::On } else { Signal::Off }
    }
}

/// An automation device, from its catalogue component.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Device {
    DepthSensor,
    ContaminationSensor,
    FlowSensor,
    ResourceCounter,
    PopulationCounter,
    PowerMeter,
    Chronometer,
    Lever,
    Relay,
    Memory,
    /// A lamp showing its input (a target, not a transmitter).
    Indicator,
}

impl Device {
    pub fn of(s: &Spec) -> Option<Device> {
        let has = |c: &str| s.components.iter().any(|x| x == c);
        Some(if has("DepthSensorSpec") {
            Device::DepthSensor
        } else if has("ContaminationSensorSpec") {
            Device::ContaminationSensor
        } else if has("FlowSensorSpec") {
            Device::FlowSensor
        } else if has("ResourceCounterSpec") {
            Device::ResourceCounter
        } else if has("PopulationCounterSpec") {
            Device::PopulationCounter
        } else if has("PowerMeterSpec") {
            Device::PowerMeter
        } else if has("ChronometerSpec") {
            Device::Chronometer
        } else if has("LeverSpec") {
            Device::Lever
        } else if has("RelaySpec") {
            Device::Relay
        } else if has("MemorySpec") {
            Device::Memory
        } else if has("IndicatorSpec") {
            Device::Indicator
        } else {
            return None;
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Device::DepthSensor => "DepthSensor",
            Device::ContaminationSensor => "ContaminationSensor",
            Device::FlowSensor => "FlowSensor",
            Device::ResourceCounter => "ResourceCounter",
            Device::PopulationCounter => "PopulationCounter",
            Device::PowerMeter => "PowerMeter",
            Device::Chronometer => "Chronometer",
            Device::Lever => "Lever",
            Device::Relay => "Relay",
            Device::Memory => "Memory",
            Device::Indicator => "Indicator",
        }
    }

    /// Whether its output may feed other parts.
    pub fn transmitter(self) -> bool {
        self != Device::Indicator
    }

    /// Sensors read the water under them, so they stand in it.
    pub fn in_water(self) -> bool {
        matches!(
            self,
            Device::DepthSensor | Device::ContaminationSensor | Device::FlowSensor
        )
    }
}

/// The device a prefab is (read once per prefab).
pub fn device_of(prefab: &str) -> Option<Device> {
    static TABLE: OnceLock<HashMap<&'static str, Device>> = OnceLock::new();
    TABLE
        .get_or_init(|| {
            content()
                .buildings
                .values()
                .filter_map(|s| Some((s.name.as_str(), Device::of(s)?)))
                .collect()
        })
        .get(prefab)
        .copied()
}

/// What an automated building does with its input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Effect {
    Floodgate,
    /// Valves and fill valves: On opens, Off closes.
    Valve,
    Clutch,
    Pause,
    Show,
    /// A detonator: its input turning `On` fires the finished charges within its reach.
    Detonate,
}

/// How a part's inputs are named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Inputs {
    /// Relays: `a`-`h`.
    Letters,
    /// Memory cells: `a`, `b`, `reset`.
    Memory,
    /// Automated buildings: one input, `a`.
    Single,
}

/// The saved automation state of one building.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Node {
    /// Input slots (source ids): relays `a`-`h` as linked so far, memory `[a, b, reset]`,
    /// automated buildings `[a]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inputs: Vec<Option<i32>>,
    /// Configured properties (normalized text); unset ones take their default.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub config: BTreeMap<String, String>,
    /// The output (devices) or the input (automated buildings) now.
    #[serde(default)]
    pub state: Signal,
    /// Memory cells: the stored bit, and the inputs seen last tick (for edges).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bit: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub last: Vec<Signal>,
    /// Automated buildings: the input last acted on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub applied: Option<Signal>,
}

/// All automation state of a colony.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Automation {
    /// Building id -> its automation state (devices, and buildings with an input).
    #[serde(default)]
    pub nodes: BTreeMap<i32, Node>,
    /// Device ids by block version (derived).
    #[serde(skip)]
    pub(crate) devices: Option<(u64, Arc<Vec<i32>>)>,
    /// Bumped on every link and unlink.
    #[serde(skip)]
    pub(crate) links_version: u64,
    /// Evaluation order by (block version, links version) (derived).
    #[serde(skip)]
    pub(crate) order: Option<(Versions, Arc<Vec<i32>>)>,
}

/// (block version, links version).
pub(crate) type Versions = (u64, u64);

impl Automation {
    pub fn is_blank(&self) -> bool {
        self.nodes.is_empty()
    }
}

/// An input of a part (`automation.inputs`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InputView {
    pub key: String,
    pub id: i32,
    pub name: String,
}

/// A part fed by this one (`automation.outputs`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OutputView {
    pub id: i32,
    pub name: String,
}

/// The `automation` object of a building.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AutomationView {
    /// The device (`Relay`, `DepthSensor`...) or `Automatable`.
    #[serde(rename = "type")]
    pub kind: String,
    pub state: String,
    pub config: Map<String, Value>,
    pub inputs: Vec<InputView>,
    pub outputs: Vec<OutputView>,
    pub has_automator: bool,
    pub is_transmitter: bool,
    pub is_automated: bool,
}

/// `POST /api/automation/link` and `unlink` answers.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LinkView {
    pub id: i32,
    pub name: String,
    pub input: String,
    pub source_id: i32,
    pub source_name: String,
    pub connected: bool,
}

/// `POST /api/automation/configure` answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfigureView {
    pub id: i32,
    pub property: String,
    pub value: String,
    pub name: String,
    pub automation_type: String,
}

const LETTERS: [&str; 8] = ["a", "b", "c", "d", "e", "f", "g", "h"];
const MEMORY_KEYS: [&str; 3] = ["a", "b", "reset"];

fn wrong_type(id: i32, name: &str, what: &str) -> CommandError {
    CommandError::new(ErrorCode::InvalidType, format!("{name} #{id} {what}"))
        .with("id", id)
        .with("name", name)
}

impl World {
    /// What an automated building does with its input (`None`: it takes none).
    pub(crate) fn effect_of(&self, b: &Building) -> Option<Effect> {
        let s = b.spec();
        if device_of(&b.prefab) == Some(Device::Indicator) {
            Some(Effect::Show)
        } else if device_of(&b.prefab).is_some() {
            None
        } else if s.components.iter().any(|c| c == "DetonatorSpec") {
            Some(Effect::Detonate)
        } else if s.flag("floodgate") {
            Some(Effect::Floodgate)
        } else if crate::colony::water_buildings::is_any_valve(s) {
            Some(Effect::Valve)
        } else if crate::power::is_clutch(s) {
            Some(Effect::Clutch)
        } else if crate::colony::pausable(b) {
            Some(Effect::Pause)
        } else {
            None
        }
    }

    /// How a building's inputs are named (`None`: it has no automation input).
    pub(crate) fn inputs_of(&self, b: &Building) -> Option<Inputs> {
        match device_of(&b.prefab) {
            Some(Device::Relay) => Some(Inputs::Letters),
            Some(Device::Memory) => Some(Inputs::Memory),
            _ => self.effect_of(b).map(|_| Inputs::Single),
        }
    }

    /// A configured value of a device (its default when unset).
    pub(crate) fn automation_setting(&self, id: i32, d: Device, name: &str) -> String {
        self.setting(id, d, name).to_owned()
    }

    /// A configured value of a device, borrowed (`name` spelled as in the table).
    pub(crate) fn setting(&self, id: i32, d: Device, name: &str) -> &str {
        if let Some(v) = self
            .colony
            .automation
            .nodes
            .get(&id)
            .and_then(|n| n.config.get(name))
        {
            return v;
        }
        config::props(d)
            .iter()
            .find(|p| p.name == name)
            .map_or("", |p| p.default)
    }

    /// The slot an input name takes on a target, checked against its mode.
    fn input_slot(
        &self,
        id: i32,
        b: &Building,
        kind: Inputs,
        input: Option<&str>,
    ) -> Result<(usize, String), CommandError> {
        let (given, key) = input_name(input);
        match kind {
            Inputs::Single => Ok((0, "a".to_owned())),
            Inputs::Letters => {
                let i = LETTERS.iter().position(|l| *l == key).ok_or_else(|| {
                    CommandError::invalid_param(
                        format!("a relay's inputs are a to h; got {given:?}"),
                        given,
                    )
                })?;
                let mode = self.automation_setting(id, Device::Relay, "mode");
                if i > 0 && (mode == "Not" || mode == "Passthrough") {
                    return Err(CommandError::invalid_param(
                        format!(
                            "{} #{id} is in {mode} mode, which reads input a only; set mode And, Or or Xor first (POST /api/automation/configure)",
                            b.prefab
                        ),
                        given,
                    ));
                }
                Ok((i, key))
            }
            Inputs::Memory => {
                let i = MEMORY_KEYS.iter().position(|l| *l == key).ok_or_else(|| {
                    CommandError::invalid_param(
                        format!("a memory cell's inputs are a, b and reset; got {given:?}"),
                        given,
                    )
                })?;
                let mode = self.automation_setting(id, Device::Memory, "mode");
                if i == 1 && (mode == "SetReset" || mode == "Toggle") {
                    return Err(CommandError::invalid_param(
                        format!(
                            "{} #{id} is in {mode} mode, which has no input b; set mode Latch or FlipFlop first (POST /api/automation/configure)",
                            b.prefab
                        ),
                        given,
                    ));
                }
                Ok((i, key))
            }
        }
    }

    /// Links a transmitter to an input of a relay, a memory cell or an automatable building.
    pub fn automation_link(
        &mut self,
        source: i32,
        target: i32,
        input: Option<&str>,
    ) -> Result<LinkView, CommandError> {
        let t = self.colony.building(target)?;
        let s = self.colony.building(source)?;
        let (tname, sname) = (t.prefab.to_string(), s.prefab.to_string());
        if !device_of(&s.prefab).is_some_and(Device::transmitter) {
            return Err(wrong_type(
                source,
                &sname,
                "is not a transmitter; link sources are sensors, counters, meters, chronometers, levers, relays and memory cells",
            ));
        }
        let Some(kind) = self.inputs_of(t) else {
            return Err(wrong_type(
                target,
                &tname,
                "has no automation input; link targets are relays, memory cells, floodgates, clutches, valves, indicators, detonators and pausable buildings",
            ));
        };
        if source == target {
            return Err(CommandError::invalid_param(
                format!("{tname} #{target} cannot feed itself"),
                source,
            ));
        }
        let (slot, key) = self.input_slot(target, t, kind, input)?;
        let node = self.colony.automation.nodes.entry(target).or_default();
        let want = match kind {
            Inputs::Memory => 3,
            Inputs::Single => 1,
            Inputs::Letters => slot + 1,
        };
        if node.inputs.len() < want {
            node.inputs.resize(want, None);
        }
        node.inputs[slot] = Some(source);
        if kind == Inputs::Single {
            node.applied = None;
        }
        self.colony.automation.links_version += 1;
        Ok(LinkView {
            id: target,
            name: tname,
            input: key,
            source_id: source,
            source_name: sname,
            connected: true,
        })
    }

    /// Empties an input (never removes it: later letters keep theirs).
    pub fn automation_unlink(
        &mut self,
        id: i32,
        input: Option<&str>,
    ) -> Result<LinkView, CommandError> {
        let b = self.colony.building(id)?;
        let name = b.prefab.to_string();
        let Some(kind) = self.inputs_of(b) else {
            return Err(wrong_type(id, &name, "has no automation input to unlink"));
        };
        let (slot, key) = self.input_slot_for_unlink(id, b, kind, input)?;
        let mut was = None;
        if let Some(node) = self.colony.automation.nodes.get_mut(&id)
            && let Some(s) = node.inputs.get_mut(slot)
        {
            was = s.take();
        }
        self.colony.automation.links_version += 1;
        if kind == Inputs::Single
            && was.is_some()
            && device_of(&name).is_none()
            && let Some(n) = self.colony.automation.nodes.get(&id)
            && n.inputs.iter().all(Option::is_none)
        {
            self.colony.automation.nodes.remove(&id);
        }
        let source_name = was
            .and_then(|s| self.colony.buildings.get(&s))
            .map(|b| b.prefab.to_string())
            .unwrap_or_default();
        Ok(LinkView {
            id,
            name,
            input: key,
            source_id: was.unwrap_or(0),
            source_name,
            connected: false,
        })
    }

    /// Unlink checks input names but not modes (emptying b of a SetReset cell is harmless).
    fn input_slot_for_unlink(
        &self,
        id: i32,
        b: &Building,
        kind: Inputs,
        input: Option<&str>,
    ) -> Result<(usize, String), CommandError> {
        let (_, key) = input_name(input);
        match kind {
            Inputs::Letters if LETTERS.contains(&key.as_str()) => {
                Ok((LETTERS.iter().position(|l| *l == key).expect("listed"), key))
            }
            Inputs::Memory if MEMORY_KEYS.contains(&key.as_str()) => Ok((
                MEMORY_KEYS.iter().position(|l| *l == key).expect("listed"),
                key,
            )),
            _ => self.input_slot(id, b, kind, input),
        }
    }

    /// Sets one property of a configurable device.
    pub fn automation_configure(
        &mut self,
        id: i32,
        property: &str,
        value: &str,
    ) -> Result<ConfigureView, CommandError> {
        let b = self.colony.building(id)?;
        let name = b.prefab.to_string();
        if b.valve.is_some() {
            return self.configure_valve(id, property, value);
        }
        let Some(d) = device_of(&name).filter(|d| !config::props(*d).is_empty()) else {
            return Err(wrong_type(
                id,
                &name,
                "has no automation settings; configurable are sensors, counters, power meters, chronometers, levers, relays, memory cells, valves and fill valves",
            ));
        };
        let Some(p) = config::find(d, property) else {
            let names: Vec<&str> = config::props(d).iter().map(|p| p.name).collect();
            return Err(CommandError::invalid_param(
                format!(
                    "{} has no property {property:?}; its properties are {}",
                    d.name(),
                    names.join(", ")
                ),
                property,
            ));
        };
        let v = config::parse(p, value)?;
        self.colony
            .automation
            .nodes
            .entry(id)
            .or_default()
            .config
            .insert(p.name.to_owned(), v.clone());
        Ok(ConfigureView {
            id,
            property: p.name.to_owned(),
            value: v,
            name,
            automation_type: d.name().to_owned(),
        })
    }

    /// The `automation` object of a building: devices, and buildings with a linked input.
    pub fn automation_view(&self, id: i32) -> Option<AutomationView> {
        let b = self.colony.buildings.get(&id)?;
        let device = device_of(&b.prefab);
        let node = self.colony.automation.nodes.get(&id);
        let linked = node.is_some_and(|n| n.inputs.iter().any(Option::is_some));
        if device.is_none() && !linked {
            return None;
        }
        let kind = self.inputs_of(b);
        let mut config = Map::new();
        if let Some(d) = device {
            for p in config::props(d) {
                let v = self.automation_setting(id, d, p.name);
                config.insert(p.name.to_owned(), config::to_json(p, &v));
            }
        }
        let keys: &[&str] = match kind {
            Some(Inputs::Memory) => &MEMORY_KEYS,
            _ => &LETTERS,
        };
        let inputs = node
            .map(|n| {
                n.inputs
                    .iter()
                    .enumerate()
                    .filter_map(|(i, s)| {
                        let s = (*s)?;
                        Some(InputView {
                            key: keys.get(i).copied().unwrap_or("a").to_owned(),
                            id: s,
                            name: self
                                .colony
                                .buildings
                                .get(&s)
                                .map(|b| b.prefab.to_string())
                                .unwrap_or_default(),
                        })
                    })
                    .collect()
            })
            .unwrap_or_default();
        let outputs = self
            .colony
            .automation
            .nodes
            .iter()
            .filter(|(_, n)| n.inputs.contains(&Some(id)))
            .filter_map(|(t, _)| {
                Some(OutputView {
                    id: *t,
                    name: self.colony.buildings.get(t)?.prefab.to_string(),
                })
            })
            .collect();
        Some(AutomationView {
            kind: device.map_or("Automatable", Device::name).to_owned(),
            state: node
                .map(|n| n.state)
                .unwrap_or_default()
                .as_str()
                .to_owned(),
            config,
            inputs,
            outputs,
            has_automator: kind.is_some(),
            is_transmitter: device.is_some_and(Device::transmitter),
            is_automated: linked,
        })
    }

    /// The output (or, for automated buildings, the input) of a part now.
    pub fn automation_state(&self, id: i32) -> Option<Signal> {
        self.colony.automation.nodes.get(&id).map(|n| n.state)
    }

    /// Finished automated buildings (those with an effect: floodgates, clutches, indicators,
    /// pausable buildings) whose input is linked to a finished transmitter, by prefab base name:
    /// the history's `automated` (scenarios ask e.g. for an automated floodgate).
    pub(crate) fn automated_buildings(&self) -> BTreeMap<String, u32> {
        let buildings = &self.colony.buildings;
        let mut out = BTreeMap::new();
        for (id, node) in &self.colony.automation.nodes {
            let Some(b) = buildings.get(id).filter(|b| b.finished) else {
                continue;
            };
            let linked = node
                .inputs
                .first()
                .copied()
                .flatten()
                .and_then(|src| buildings.get(&src))
                .is_some_and(|s| s.finished);
            if linked && self.effect_of(b).is_some() {
                *out.entry(b.spec().base_name.clone()).or_insert(0) += 1;
            }
        }
        out
    }
}
