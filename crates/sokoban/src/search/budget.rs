//! Memory accounting against `--memory-mib`: every table of the search grows through it;
//! and the looks at the clock within an expansion ([`Looks`]).

use std::time::{Duration, Instant};

use crate::solution::{Interrupt, SolveError};

/// The looks at the clock and at the interrupt within an expansion, one every so many
/// states made: on a level of a thousand boxes one matching takes a millisecond and one
/// expansion seconds, where the searches' loops look only between expansions.
#[derive(Debug, Clone, Default)]
pub(super) struct Looks {
    deadline: Option<Instant>,
    interrupt: Option<Interrupt>,
    /// States made between two looks: about a million steps of matching.
    every: u32,
    /// States made until the next look.
    left: u32,
}

impl Looks {
    /// Looks for a search of `k` boxes stopped at `deadline` or by `interrupt`.
    pub(super) fn new(k: usize, deadline: Option<Instant>, interrupt: Option<Interrupt>) -> Self {
        let every = ((1 << 20) / (k * k).max(1)).clamp(1, 1 << 16) as u32;
        Looks {
            deadline,
            interrupt,
            every,
            left: every,
        }
    }

    /// Counts a state made, and looks when its turn comes.
    ///
    /// # Errors
    /// [`SolveError::Interrupted`] or [`SolveError::Time`] when the search is to stop.
    #[inline]
    pub(super) fn made(&mut self) -> Result<(), SolveError> {
        self.left = self.left.saturating_sub(1);
        if self.left > 0 {
            return Ok(());
        }
        self.left = self.every;
        if self.interrupt.as_ref().is_some_and(Interrupt::is_set) {
            return Err(SolveError::Interrupted);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(SolveError::Time);
        }
        Ok(())
    }
}

/// Memory accounting against `--memory-mib`.
#[derive(Debug)]
pub(super) struct Budget {
    pub(super) bytes: u64,
    pub(super) limit: u64,
    /// When the search that owns it stops on the clock: a table does not start growing
    /// when the growth would not end by then ([`Budget::runs_out_within`]).
    pub(super) deadline: Option<Instant>,
    /// A table met its limit because it did not grow for the clock: a stop on this
    /// budget is a stop on time ([`Budget::reason`]).
    pub(super) late: bool,
}

impl Budget {
    /// A budget of `limit` bytes, none used, no deadline.
    pub(super) fn new(limit: u64) -> Self {
        Budget {
            bytes: 0,
            limit,
            deadline: None,
            late: false,
        }
    }

    /// Why a search on this budget stopped, given the error it stopped with: a table
    /// full because it did not grow for the clock ([`Budget::late`]) is a stop on time.
    pub(super) fn reason(&self, error: SolveError) -> SolveError {
        match error {
            SolveError::Memory if self.late => SolveError::Time,
            e => e,
        }
    }

    /// Whether work of `length` started now would pass the deadline.
    pub(super) fn runs_out_within(&self, length: Duration) -> bool {
        self.deadline.is_some_and(|d| Instant::now() + length > d)
    }

    /// Makes room for `additional` more elements in `v`, growing it by at least doubling
    /// when the budget allows and counting what it grew by; `false` when it does not.
    ///
    /// Why the count of elements: a vector grown past its capacity by `push` or
    /// `extend_from_slice` doubles itself, uncounted. The layouts' box squares (`k` at a
    /// time) did so when fewer than `k` places were left: on XSokoban 68 at `--memory-mib
    /// 1000` the process peaked at 1097 MiB.
    pub(super) fn room<T>(&mut self, v: &mut Vec<T>, additional: usize) -> bool {
        if v.len() + additional <= v.capacity() {
            return true;
        }
        let before = v.capacity();
        let extra = before.max(additional).max(1024);
        if self.bytes + (extra * size_of::<T>()) as u64 > self.limit {
            return false;
        }
        v.reserve_exact(extra);
        self.bytes += ((v.capacity() - before) * size_of::<T>()) as u64;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::{Budget, Looks};
    use crate::solution::{Interrupt, SolveError};
    use std::time::{Duration, Instant};

    /// With many boxes the clock is looked at after every state made, with few after
    /// tens of thousands; a passed deadline or a set interrupt then stops the search.
    #[test]
    fn looks_come_sooner_with_more_boxes_and_stop_the_search() {
        let past = Some(Instant::now());
        let mut many = Looks::new(1000, past, None);
        assert_eq!(many.made(), Err(SolveError::Time));
        let interrupt = Interrupt::default();
        interrupt.interrupt();
        let mut few = Looks::new(4, past, Some(interrupt));
        let made = (0..1 << 20).take_while(|_| few.made().is_ok()).count();
        assert_eq!(made, (1 << 16) - 1);
        assert_eq!(few.made(), Ok(()));
        let mut later = Looks::new(1000, Some(Instant::now() + Duration::from_secs(60)), None);
        assert!((0..1000).all(|_| later.made().is_ok()));
    }

    /// What a vector holds is counted whenever it is grown through [`Budget::room`], also
    /// when several elements are added at once near its capacity (the layouts' box
    /// squares); and `room` refuses past the limit.
    #[test]
    fn the_count_follows_the_capacity() {
        let mut budget = Budget::new(1 << 20);
        let mut words: Vec<u16> = Vec::new();
        for k in [1, 3, 15, 15, 2, 15, 7] {
            for _ in 0..2000 {
                if !budget.room(&mut words, k) {
                    break;
                }
                let capacity = words.capacity();
                words.extend(std::iter::repeat_n(0, k));
                assert_eq!(words.capacity(), capacity, "grown past what was counted");
                assert_eq!(budget.bytes, (words.capacity() * 2) as u64);
            }
        }
        assert!(budget.bytes <= budget.limit);
        let full = words.capacity() - words.len();
        assert!(!budget.room(&mut words, full + budget.limit as usize));
    }

    /// A stop on a budget whose table did not grow for the clock is a stop on time;
    /// otherwise the error is what it was.
    #[test]
    fn a_late_budget_stops_on_time() {
        let mut budget = Budget::new(1 << 20);
        assert_eq!(budget.reason(SolveError::Memory), SolveError::Memory);
        budget.late = true;
        assert_eq!(budget.reason(SolveError::Memory), SolveError::Time);
        assert_eq!(
            budget.reason(SolveError::Interrupted),
            SolveError::Interrupted
        );
    }
}
