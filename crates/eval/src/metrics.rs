//! Named metrics over an episode: `colony-score`'s (crates/score, shared with colonyd's
//! `POST /api/score`), under the harness's module path.

pub use ::score::metrics::*;

#[cfg(test)]
pub(crate) mod tests {
    /// An hourly row for the harness's tests (`score::history::Row::temperate`).
    pub fn row(day: u32, hour: u32, adults: u32) -> crate::history::Row {
        crate::history::Row::temperate(day, hour, adults)
    }
}
