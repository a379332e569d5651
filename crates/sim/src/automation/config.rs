//! The configure table: every property of every configurable automation device, its type, its
//! default, and how a value given as text is checked and written back (normalized).

use serde_json::Value;

use super::Device;
use crate::content::content;
use crate::error::CommandError;

/// The six comparisons of sensors and counters.
pub const COMPARISONS: &[&str] = &[
    "Equal",
    "NotEqual",
    "Greater",
    "GreaterOrEqual",
    "Less",
    "LessOrEqual",
];

/// A property's type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Ty {
    Float {
        min: f64,
        max: f64,
    },
    Int,
    Bool,
    Enum(&'static [&'static str]),
    /// A good id of the catalogue.
    Good,
}

/// One configurable property.
#[derive(Debug, Clone, Copy)]
pub struct Prop {
    pub name: &'static str,
    pub ty: Ty,
    pub default: &'static str,
}

const fn prop(name: &'static str, ty: Ty, default: &'static str) -> Prop {
    Prop { name, ty, default }
}

/// Depths and flows: not below 0.
const NONNEG: Ty = Ty::Float {
    min: 0.0,
    max: f64::MAX,
};
const SHARE: Ty = Ty::Float { min: 0.0, max: 1.0 };
const HOUR: Ty = Ty::Float {
    min: 0.0,
    max: 24.0,
};
const PERCENT: Ty = Ty::Float {
    min: 0.0,
    max: 100.0,
};

const DEPTH: &[Prop] = &[
    prop("threshold", NONNEG, "1"),
    prop("mode", Ty::Enum(COMPARISONS), "Greater"),
];
const CONTAMINATION: &[Prop] = &[
    prop("threshold", SHARE, "0.5"),
    prop("mode", Ty::Enum(COMPARISONS), "Greater"),
];
const FLOW: &[Prop] = &[
    prop("threshold", NONNEG, "0.1"),
    prop("mode", Ty::Enum(COMPARISONS), "Greater"),
];
const RESOURCES: &[Prop] = &[
    prop("goodId", Ty::Good, ""),
    prop("threshold", Ty::Int, "0"),
    prop("fillRateThreshold", SHARE, "0.5"),
    prop("mode", Ty::Enum(&["StockLevel", "FillRate"]), "StockLevel"),
    prop("comparisonMode", Ty::Enum(COMPARISONS), "Greater"),
    prop("includeInputs", Ty::Bool, "false"),
];
/// Population counter modes (the contract names the property, not its values; ours).
pub const POPULATION_MODES: &[&str] = &["Total", "Adults", "Children", "Homeless", "Unemployed"];
const POPULATION: &[Prop] = &[
    prop("threshold", Ty::Int, "0"),
    prop("mode", Ty::Enum(POPULATION_MODES), "Total"),
    prop("comparisonMode", Ty::Enum(COMPARISONS), "Greater"),
    prop("globalMode", Ty::Bool, "false"),
    prop("countBeavers", Ty::Bool, "true"),
    prop("countBots", Ty::Bool, "true"),
];
const POWER: &[Prop] = &[
    prop("mode", Ty::Enum(&["Power", "Percent"]), "Power"),
    prop("comparisonMode", Ty::Enum(COMPARISONS), "Greater"),
    prop("intThreshold", Ty::Int, "0"),
    prop("percentThreshold", PERCENT, "50"),
];
pub const RELAY_MODES: &[&str] = &["Not", "And", "Or", "Xor", "Passthrough"];
const RELAY: &[Prop] = &[prop("mode", Ty::Enum(RELAY_MODES), "Passthrough")];
pub const MEMORY_MODES: &[&str] = &["SetReset", "Toggle", "Latch", "FlipFlop"];
const MEMORY: &[Prop] = &[prop("mode", Ty::Enum(MEMORY_MODES), "SetReset")];
const CHRONOMETER: &[Prop] = &[
    prop("startTime", HOUR, "6"),
    prop("endTime", HOUR, "18"),
    prop(
        "mode",
        Ty::Enum(&["TimeRange", "WorkingHours", "NonWorkingHours"]),
        "TimeRange",
    ),
];
/// `on` (the lever's position) is an extension: the contract gives no other way to throw one.
const LEVER: &[Prop] = &[
    prop("springReturn", Ty::Bool, "false"),
    prop("pinned", Ty::Bool, "false"),
    prop("on", Ty::Bool, "false"),
];

/// The properties of a device (empty: nothing to configure).
pub fn props(d: Device) -> &'static [Prop] {
    match d {
        Device::DepthSensor => DEPTH,
        Device::ContaminationSensor => CONTAMINATION,
        Device::FlowSensor => FLOW,
        Device::ResourceCounter => RESOURCES,
        Device::PopulationCounter => POPULATION,
        Device::PowerMeter => POWER,
        Device::Chronometer => CHRONOMETER,
        Device::Lever => LEVER,
        Device::Relay => RELAY,
        Device::Memory => MEMORY,
        Device::Indicator => &[],
    }
}

/// The property of a device by name (case-insensitive).
pub fn find(d: Device, name: &str) -> Option<&'static Prop> {
    props(d)
        .iter()
        .find(|p| p.name.eq_ignore_ascii_case(name.trim()))
}

fn bad(p: &Prop, value: &str, what: String) -> CommandError {
    CommandError::invalid_param(format!("{} must be {what}; got {value:?}", p.name), value)
}

/// Checks a value given as text and returns it normalized.
pub fn parse(p: &Prop, value: &str) -> Result<String, CommandError> {
    let v = value.trim();
    match p.ty {
        Ty::Float { min, max } => {
            let range = if max == f64::MAX {
                format!("a number from {min}")
            } else {
                format!("a number {min}-{max}")
            };
            match v.parse::<f64>() {
                Ok(f) if f.is_finite() && (min..=max).contains(&f) => Ok(format!("{f}")),
                _ => Err(bad(p, value, range)),
            }
        }
        Ty::Int => v
            .parse::<i64>()
            .map(|i| i.to_string())
            .map_err(|_| bad(p, value, "an integer".into())),
        Ty::Bool => match v.to_ascii_lowercase().as_str() {
            "true" | "1" => Ok("true".into()),
            "false" | "0" => Ok("false".into()),
            _ => Err(bad(p, value, "true or false".into())),
        },
        Ty::Enum(names) => names
            .iter()
            .find(|n| n.eq_ignore_ascii_case(v))
            .map(|n| (*n).to_owned())
            .ok_or_else(|| bad(p, value, format!("one of {}", names.join(", ")))),
        Ty::Good => content()
            .goods
            .keys()
            .find(|g| g.eq_ignore_ascii_case(v))
            .cloned()
            .ok_or_else(|| bad(p, value, "a good id (GET /api/resources lists them)".into())),
    }
}

/// A stored (normalized) value as JSON of its type.
pub fn to_json(p: &Prop, value: &str) -> Value {
    match p.ty {
        Ty::Float { .. } => value
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map_or(Value::Null, Value::Number),
        Ty::Int => value.parse::<i64>().map_or(Value::Null, Value::from),
        Ty::Bool => Value::Bool(value == "true"),
        Ty::Enum(_) | Ty::Good => Value::String(value.to_owned()),
    }
}
