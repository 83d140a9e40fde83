//! The virtual clock the server drives the engine by: wall time scaled by a speed, which the
//! control API can pause, speed up or jump forward.

use sqs_engine::Millis;
use std::time::{Duration, Instant};

/// Virtual milliseconds as a function of wall time: `base + (wall - since) × speed` while
/// running, `base` while paused. Every change rebases it at the current instant, so virtual time
/// never goes back.
#[derive(Clone, Debug)]
pub struct Clock {
    base: Millis,
    since: Instant,
    speed: f64,
    paused: bool,
}

impl Clock {
    /// A clock at virtual time 0 now, running at `speed` (virtual seconds per wall second).
    pub fn new(speed: f64, at: Instant) -> Self {
        Clock {
            base: 0,
            since: at,
            speed,
            paused: false,
        }
    }

    /// Virtual time at wall instant `at`.
    pub fn now(&self, at: Instant) -> Millis {
        if self.paused {
            return self.base;
        }
        let elapsed = at.saturating_duration_since(self.since).as_secs_f64();
        self.base + (elapsed * self.speed * 1000.0) as Millis
    }

    /// The speed (virtual seconds per wall second).
    pub fn speed(&self) -> f64 {
        self.speed
    }

    /// Whether virtual time stands still.
    pub fn paused(&self) -> bool {
        self.paused
    }

    fn rebase(&mut self, at: Instant) {
        self.base = self.now(at);
        self.since = at;
    }

    /// Runs at `speed` from `at` on.
    pub fn set_speed(&mut self, speed: f64, at: Instant) {
        self.rebase(at);
        self.speed = speed;
    }

    /// Stops (`true`) or restarts virtual time at `at`.
    pub fn set_paused(&mut self, paused: bool, at: Instant) {
        self.rebase(at);
        self.paused = paused;
    }

    /// Jumps virtual time forward by `by` milliseconds.
    pub fn advance(&mut self, by: Millis, at: Instant) {
        self.rebase(at);
        self.base += by;
    }

    /// Back to virtual time 0 at `at`, keeping the speed and whether it is paused.
    pub fn reset(&mut self, at: Instant) {
        self.base = 0;
        self.since = at;
    }

    /// The wall instant at which virtual time reaches `t`; `None` while paused. An instant in
    /// the past when `t` has been reached.
    pub fn wall_at(&self, t: Millis) -> Option<Instant> {
        if self.paused {
            return None;
        }
        let ahead = t.saturating_sub(self.base) as f64 / 1000.0 / self.speed;
        // Rounded up to the next millisecond, so that `now` has reached `t` by then.
        Some(self.since + Duration::from_secs_f64(ahead) + Duration::from_millis(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_at_its_speed_and_jumps_when_advanced() {
        let start = Instant::now();
        let mut clock = Clock::new(10.0, start);
        assert_eq!(clock.now(start + Duration::from_secs(2)), 20_000);
        clock.advance(30_000, start + Duration::from_secs(2));
        assert_eq!(clock.now(start + Duration::from_secs(2)), 50_000);
        clock.set_paused(true, start + Duration::from_secs(3));
        assert_eq!(clock.now(start + Duration::from_secs(60)), 60_000);
        assert_eq!(clock.wall_at(70_000), None);
        clock.set_paused(false, start + Duration::from_secs(60));
        clock.set_speed(1.0, start + Duration::from_secs(60));
        let wall = clock.wall_at(61_000).unwrap();
        assert!((61_000..=61_001).contains(&clock.now(wall)));
    }
}
