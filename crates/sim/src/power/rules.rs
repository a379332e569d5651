//! The power rules, typed from `data/power.json` (parsed once).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

use crate::catalog::Fact;

const POWER_JSON: &str = include_str!("../../../../data/power.json");

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PowerRules {
    /// m3/s at which a water wheel gives its nominal output.
    pub water_wheel_reference_flow: Fact<f64>,
    /// m3/s below which a water wheel stands still.
    pub water_wheel_min_flow: Fact<f64>,
    /// Wind strength (0-1) below which a turbine (by base name) stands still.
    pub wind_min_strength: Fact<BTreeMap<String, f64>>,
    /// Share of nominal output a change must reach to fire `power.generator.updated`.
    pub generator_update_step: Fact<f64>,
    #[serde(rename = "_meta")]
    pub _meta: serde_json::Value,
}

pub fn power_rules() -> &'static PowerRules {
    static RULES: OnceLock<PowerRules> = OnceLock::new();
    RULES.get_or_init(|| {
        serde_json::from_str(POWER_JSON).expect("the embedded data/power.json is valid")
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_rules_load() {
        let r = super::power_rules();
        assert!(r.water_wheel_reference_flow.value > 0.0);
        assert!(r.water_wheel_min_flow.value < r.water_wheel_reference_flow.value);
        assert_eq!(r.wind_min_strength.value["LargeWindTurbine"], 0.2);
    }
}
