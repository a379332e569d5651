//! Named metrics over an episode: `colony-score`'s (crates/score, shared with colonyd's
//! `POST /api/score`), under the harness's module path.

pub use ::score::metrics::*;

#[cfg(test)]
pub(crate) mod tests {
    use crate::history::Row;

    /// An hourly row for tests.
    pub fn row(day: u32, hour: u32, adults: u32) -> Row {
        Row {
            day,
            hour,
            adults,
            weather: "temperate".into(),
            ..Row::default()
        }
    }
}
