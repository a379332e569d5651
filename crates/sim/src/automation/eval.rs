//! The per-tick evaluation: devices in links order, then what automated buildings do.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::{Device, Effect, Signal, device_of};
use crate::colony::building::{Kind, storage_capacity};
use crate::content::content;
use crate::world::World;

/// What several devices read in one tick, gathered once.
#[derive(Default)]
struct Scratch {
    /// District -> its storage buildings.
    stores: BTreeMap<i32, Vec<i32>>,
    /// District -> its finished workplaces with the goods they take as inputs.
    workplaces: BTreeMap<i32, Vec<(i32, Vec<String>)>>,
}

/// `v` against `t` by one of the six comparisons.
pub(crate) fn compare(v: f64, mode: &str, t: f64) -> bool {
    let eq = (v - t).abs() < 1e-6;
    match mode {
        "Equal" => eq,
        "NotEqual" => !eq,
        "Greater" => v > t && !eq,
        "GreaterOrEqual" => v > t || eq,
        "Less" => v < t && !eq,
        _ => v < t || eq,
    }
}

impl World {
    /// Device ids (placed, finished or not), rebuilt when blocks change; nodes of buildings that
    /// are gone are dropped then.
    fn automation_devices(&mut self) -> Arc<Vec<i32>> {
        let v = self.colony.block_version;
        if let Some((at, ids)) = &self.colony.automation.devices
            && *at == v
        {
            return ids.clone();
        }
        let ids: Arc<Vec<i32>> = Arc::new(
            self.colony
                .buildings
                .iter()
                .filter(|(_, b)| device_of(&b.prefab).is_some())
                .map(|(id, _)| *id)
                .collect(),
        );
        let buildings = &self.colony.buildings;
        let nodes = &mut self.colony.automation.nodes;
        nodes.retain(|id, _| buildings.contains_key(id));
        for n in nodes.values_mut() {
            for s in &mut n.inputs {
                if s.is_some_and(|s| !buildings.contains_key(&s)) {
                    *s = None;
                }
            }
        }
        self.colony.automation.devices = Some((v, ids.clone()));
        ids
    }

    /// Parts in evaluation order: sources before what they feed (ties by id), then the parts of
    /// cycles in id order.
    fn automation_order(&self, parts: &BTreeSet<i32>) -> Vec<i32> {
        let nodes = &self.colony.automation.nodes;
        let mut indegree: BTreeMap<i32, usize> = parts.iter().map(|p| (*p, 0)).collect();
        let mut feeds: BTreeMap<i32, Vec<i32>> = BTreeMap::new();
        for t in parts {
            let Some(n) = nodes.get(t) else { continue };
            let mut srcs: Vec<i32> = n
                .inputs
                .iter()
                .flatten()
                .copied()
                .filter(|s| parts.contains(s))
                .collect();
            srcs.sort_unstable();
            srcs.dedup();
            for s in srcs {
                feeds.entry(s).or_default().push(*t);
                *indegree.get_mut(t).expect("a part") += 1;
            }
        }
        let mut ready: BTreeSet<i32> = indegree
            .iter()
            .filter(|(_, d)| **d == 0)
            .map(|(p, _)| *p)
            .collect();
        let mut order = Vec::with_capacity(parts.len());
        while let Some(p) = ready.pop_first() {
            order.push(p);
            for t in feeds.get(&p).into_iter().flatten() {
                let d = indegree.get_mut(t).expect("a part");
                *d -= 1;
                if *d == 0 {
                    ready.insert(*t);
                }
            }
        }
        if order.len() < parts.len() {
            let done: BTreeSet<i32> = order.iter().copied().collect();
            order.extend(parts.iter().filter(|p| !done.contains(p)));
        }
        order
    }

    /// The signal a source holds now (`None`: no such part).
    fn signal_of(&self, src: Option<i32>) -> Option<Signal> {
        let s = src?;
        self.colony.buildings.get(&s)?;
        Some(
            self.colony
                .automation
                .nodes
                .get(&s)
                .map(|n| n.state)
                .unwrap_or_default(),
        )
    }

    /// Runs the automation step alone, as `tick` does after power (for the benchmark that
    /// measures its cost; playing code only calls `tick`).
    #[doc(hidden)]
    pub fn bench_automation_tick(&mut self) {
        self.automation_tick();
    }

    /// One tick of automation.
    pub(crate) fn automation_tick(&mut self) {
        let devices = self.automation_devices();
        if devices.is_empty() && self.colony.automation.nodes.is_empty() {
            return;
        }
        let key = (
            self.colony.block_version,
            self.colony.automation.links_version,
        );
        let order = match &self.colony.automation.order {
            Some((k, o)) if *k == key => o.clone(),
            _ => {
                let mut parts: BTreeSet<i32> = devices.iter().copied().collect();
                for (id, n) in &self.colony.automation.nodes {
                    if n.inputs.iter().any(Option::is_some) {
                        parts.insert(*id);
                    }
                }
                let o = Arc::new(self.automation_order(&parts));
                self.colony.automation.order = Some((key, o.clone()));
                o
            }
        };
        let mut scratch = Scratch::default();
        let mut effects = Vec::new();
        for &id in order.iter() {
            let Some(b) = self.colony.buildings.get(&id) else {
                continue;
            };
            let device = device_of(&b.prefab).filter(|d| *d != Device::Indicator);
            let finished = b.finished;
            match device {
                Some(d) => {
                    let (state, memory) = if !finished {
                        (Signal::Off, None)
                    } else if d == Device::Memory {
                        let (s, bit, last) = self.memory_signal(id);
                        (s, Some((bit, last)))
                    } else {
                        (self.device_signal(id, d, &mut scratch), None)
                    };
                    let spring = d == Device::Lever
                        && state == Signal::On
                        && self.setting(id, d, "springReturn") == "true";
                    let node = self.colony.automation.nodes.entry(id).or_default();
                    node.state = state;
                    if let Some((bit, last)) = memory {
                        node.bit = bit;
                        node.last = last;
                    }
                    if spring {
                        node.config.insert("on".into(), "false".into());
                    }
                }
                None => {
                    let Some(effect) = self.effect_of(b) else {
                        continue;
                    };
                    let src = self
                        .colony
                        .automation
                        .nodes
                        .get(&id)
                        .and_then(|n| n.inputs.first().copied().flatten());
                    let Some(input) = self.signal_of(src) else {
                        continue;
                    };
                    let node = self.colony.automation.nodes.entry(id).or_default();
                    node.state = input;
                    if input != Signal::Error && node.applied != Some(input) {
                        // (A detonator fires on a rising signal only: Off before, On now.)
                        let rising = node.applied == Some(Signal::Off) && input == Signal::On;
                        node.applied = Some(input);
                        effects.push((id, effect, input == Signal::On, rising));
                    }
                }
            }
        }
        for (id, effect, on, rising) in effects {
            // The commands check the building again; a refusal changes nothing.
            let _ = match effect {
                Effect::Detonate if rising => {
                    self.detonate_from(id);
                    Ok(())
                }
                Effect::Detonate => Ok(()),
                Effect::Floodgate => self
                    .set_floodgate(id, if on { f64::from(u16::MAX) } else { 0.0 })
                    .map(|_| ()),
                Effect::Clutch => self.set_clutch(id, on).map(|_| ()),
                Effect::Valve => self.set_valve_open(id, on).map(|_| ()),
                Effect::Pause => self.set_paused(id, !on).map(|_| ()),
                Effect::Show => Ok(()),
            };
        }
    }

    /// The output of a finished transmitter other than a memory cell.
    fn device_signal(&self, id: i32, d: Device, scratch: &mut Scratch) -> Signal {
        let b = &self.colony.buildings[&id];
        let set = |name: &str| self.setting(id, d, name);
        let num = |name: &str| set(name).parse::<f64>().unwrap_or(0.0);
        match d {
            Device::DepthSensor | Device::ContaminationSensor | Device::FlowSensor => {
                let v = match d {
                    Device::DepthSensor => f64::from(self.water_depth(b.x, b.y)),
                    Device::ContaminationSensor => f64::from(self.badwater_share(b.x, b.y)),
                    _ => {
                        let f = self.water_flow(b.x, b.y);
                        f64::from(f.x.hypot(f.y))
                    }
                };
                Signal::of(compare(v, set("mode"), num("threshold")))
            }
            Device::ResourceCounter => {
                let good = set("goodId");
                let (Some(district), Some(g)) = (b.district, content().goods.get(good)) else {
                    return Signal::Error;
                };
                let stores = scratch
                    .stores
                    .entry(district)
                    .or_insert_with(|| self.colony.stores_of(district));
                if set("mode") == "FillRate" {
                    let (mut held, mut cap) = (0u32, 0u32);
                    for s in stores.iter() {
                        let sb = &self.colony.buildings[s];
                        if sb.kind() != Kind::Storage
                            || sb.allowed_good.as_deref().is_some_and(|a| a != good)
                        {
                            continue;
                        }
                        if let Some((kind, units)) = storage_capacity(sb.spec())
                            && kind == g.storage
                        {
                            cap += units;
                            held += sb.has(good);
                        }
                    }
                    if cap == 0 {
                        return Signal::Error;
                    }
                    let fill = f64::from(held) / f64::from(cap);
                    Signal::of(compare(
                        fill,
                        set("comparisonMode"),
                        num("fillRateThreshold"),
                    ))
                } else {
                    let mut n: u32 = stores
                        .iter()
                        .map(|s| self.colony.buildings[s].has(good))
                        .sum();
                    if set("includeInputs") == "true" {
                        let holders = scratch.workplaces.entry(district).or_insert_with(|| {
                            self.colony
                                .buildings
                                .iter()
                                .filter(|(_, o)| {
                                    o.finished
                                        && o.district == Some(district)
                                        && !matches!(o.kind(), Kind::Storage | Kind::DistrictCenter)
                                })
                                .map(|(id, o)| (*id, crate::colony::input_goods(o)))
                                .collect()
                        });
                        n += holders
                            .iter()
                            .filter(|(_, inputs)| inputs.iter().any(|i| i == good))
                            .map(|(o, _)| self.colony.buildings[o].has(good))
                            .sum::<u32>();
                    }
                    Signal::of(compare(
                        f64::from(n),
                        set("comparisonMode"),
                        num("threshold"),
                    ))
                }
            }
            Device::PopulationCounter => {
                let global = set("globalMode") == "true";
                if !global && b.district.is_none() {
                    return Signal::Error;
                }
                let (beavers, bots) = (set("countBeavers") == "true", set("countBots") == "true");
                let mode = set("mode");
                let n = self
                    .colony
                    .beavers
                    .values()
                    .filter(|v| global || v.district == b.district)
                    .filter(|v| if v.is_bot { bots } else { beavers })
                    .filter(|v| match mode {
                        "Adults" => !v.child,
                        "Children" => v.child,
                        "Homeless" => v.home.is_none(),
                        "Unemployed" => !v.child && v.workplace.is_none(),
                        _ => true,
                    })
                    .count();
                Signal::of(compare(n as f64, set("comparisonMode"), num("threshold")))
            }
            Device::PowerMeter => {
                let Some(p) = self.power_state(id).filter(|p| p.network_id.is_some()) else {
                    return Signal::Error;
                };
                if set("mode") == "Percent" {
                    let load = if p.supply > 0.0 {
                        p.demand / p.supply * 100.0
                    } else if p.demand > 0.0 {
                        100.0
                    } else {
                        0.0
                    };
                    Signal::of(compare(
                        load,
                        set("comparisonMode"),
                        num("percentThreshold"),
                    ))
                } else {
                    Signal::of(compare(
                        p.supply,
                        set("comparisonMode"),
                        num("intThreshold"),
                    ))
                }
            }
            Device::Chronometer => match set("mode") {
                "WorkingHours" => Signal::of(self.are_working_hours()),
                "NonWorkingHours" => Signal::of(!self.are_working_hours()),
                _ => {
                    let h = self.time().hour;
                    let (start, end) = (num("startTime"), num("endTime"));
                    Signal::of(if start <= end {
                        h >= start && h < end
                    } else {
                        h >= start || h < end
                    })
                }
            },
            Device::Lever => Signal::of(set("on") == "true"),
            Device::Relay => {
                let node = self.colony.automation.nodes.get(&id);
                let slots: Vec<Option<i32>> = node.map(|n| n.inputs.clone()).unwrap_or_default();
                let a = self.signal_of(slots.first().copied().flatten());
                match set("mode") {
                    "Not" => match a {
                        Some(Signal::On) => Signal::Off,
                        Some(Signal::Off) => Signal::On,
                        _ => Signal::Error,
                    },
                    "Passthrough" => a.unwrap_or(Signal::Error),
                    mode => {
                        let ins: Vec<Signal> =
                            slots.iter().filter_map(|s| self.signal_of(*s)).collect();
                        if ins.is_empty() || ins.contains(&Signal::Error) {
                            return Signal::Error;
                        }
                        let on = ins.iter().filter(|s| **s == Signal::On).count();
                        Signal::of(match mode {
                            "And" => on == ins.len(),
                            "Or" => on > 0,
                            _ => on % 2 == 1,
                        })
                    }
                }
            }
            Device::Memory | Device::Indicator => Signal::Off,
        }
    }

    /// A memory cell's output, stored bit and inputs seen (for next tick's edges).
    fn memory_signal(&self, id: i32) -> (Signal, bool, Vec<Signal>) {
        let node = self.colony.automation.nodes.get(&id);
        let slots: Vec<Option<i32>> = node.map(|n| n.inputs.clone()).unwrap_or_default();
        let mut bit = node.is_some_and(|n| n.bit);
        let last: Vec<Signal> = node.map(|n| n.last.clone()).unwrap_or_default();
        let input = |i: usize| self.signal_of(slots.get(i).copied().flatten());
        let (a, b, reset) = (input(0), input(1), input(2));
        let seen = vec![
            a.unwrap_or_default(),
            b.unwrap_or_default(),
            reset.unwrap_or_default(),
        ];
        let was = |i: usize| last.get(i).copied().unwrap_or_default();
        let mode = self.setting(id, Device::Memory, "mode");
        let clocked = mode == "Latch" || mode == "FlipFlop";
        let broken =
            a.is_none() || clocked && b.is_none() || [a, b, reset].contains(&Some(Signal::Error));
        if broken {
            return (Signal::Error, bit, seen);
        }
        let (a, b) = (a == Some(Signal::On), b == Some(Signal::On));
        if reset == Some(Signal::On) {
            bit = false;
        } else {
            match mode {
                "Toggle" => {
                    if a && was(0) != Signal::On {
                        bit = !bit;
                    }
                }
                "Latch" => {
                    if b {
                        bit = a;
                    }
                }
                "FlipFlop" => {
                    if b && was(1) != Signal::On {
                        bit = a;
                    }
                }
                _ => {
                    if a {
                        bit = true;
                    }
                }
            }
        }
        (Signal::of(bit), bit, seen)
    }
}
