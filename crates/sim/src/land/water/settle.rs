//! Settling a new map's water: running it with temperate sources until it is at rest, then
//! removing the pools no source feeds, so a game starts with its river as it will flow.

use super::{SourceMode, Water, WaterParams, WaterTotals};

/// Steps between two checks of [`Water::settle`].
const SETTLE_CHECK_STEPS: usize = 16;

impl Water {
    /// Runs temperate steps until no tile's depth changes by more than `tolerance` over
    /// `SETTLE_CHECK_STEPS` steps, or `max_steps` have run, then removes the pools no source
    /// feeds. The totals then start afresh from the water as it stands (a new map's initial
    /// water).
    pub(crate) fn settle(
        &mut self,
        terrain: &[u8],
        p: &WaterParams,
        tolerance: f32,
        max_steps: usize,
    ) {
        let mut last = self.depth.clone();
        let mut steps = 0;
        while steps < max_steps {
            for _ in 0..SETTLE_CHECK_STEPS {
                self.step(terrain, SourceMode::Temperate, p);
            }
            steps += SETTLE_CHECK_STEPS;
            let moved = self
                .depth
                .iter()
                .zip(&last)
                .any(|(d, l)| (d - l).abs() > tolerance);
            if !moved {
                break;
            }
            last.copy_from_slice(&self.depth);
        }
        self.drop_stranded();
        self.totals = WaterTotals {
            initial: self.stored(),
            ..WaterTotals::default()
        };
    }

    /// Removes the water no source feeds: the wet tiles not joined to a flowing source's tile
    /// through wet 4-neighbours (pools the filling left behind, which would only dry up).
    fn drop_stranded(&mut self) {
        let (w, h) = (self.width as usize, self.height as usize);
        let mut fed = vec![false; w * h];
        let mut queue: Vec<usize> = self
            .sources
            .iter()
            .filter(|s| !s.capped && s.emission(SourceMode::Temperate).0 > 0.0)
            .map(|s| s.y as usize * w + s.x as usize)
            .filter(|&i| self.depth[i] > 0.0)
            .collect();
        for &i in &queue {
            fed[i] = true;
        }
        while let Some(i) = queue.pop() {
            let (x, y) = (i % w, i / w);
            let near = [
                (x > 0).then(|| i - 1),
                (x + 1 < w).then(|| i + 1),
                (y > 0).then(|| i - w),
                (y + 1 < h).then(|| i + w),
            ];
            for j in near.into_iter().flatten() {
                if !fed[j] && self.depth[j] > 0.0 {
                    fed[j] = true;
                    queue.push(j);
                }
            }
        }
        for (i, _) in fed.iter().enumerate().filter(|(_, f)| !**f) {
            if self.depth[i] <= 0.0 {
                continue;
            }
            self.depth[i] = 0.0;
            self.bad[i] = 0.0;
            let (x, y) = (i % w, i / w);
            self.fx[y * (w + 1) + x] = 0.0;
            self.fx[y * (w + 1) + x + 1] = 0.0;
            self.fy[i] = 0.0;
            self.fy[i + w] = 0.0;
        }
        self.spans_valid = false;
    }
}
