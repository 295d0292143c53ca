//! The sessions kept across decisions ([`Sessions`]): one per group of agents, reused,
//! widened or built anew as the budgets and the groups change, within the memory the
//! caller gives them; their cores replayed in a wider session keep the bound.
//!
//! # Complexity
//! As the [`Session`]s they build and decide.

use crate::mapf::Instance;
use crate::mapf::sat::{Deadline, drop_off_the_clock};

use super::super::pairwise::Pair;
use super::session::in_order_of;
use super::{CoreLog, Decision, Session, TooLarge, count_own_variables, others_least};

/// With [`Sessions::filling`], the share of the room (numerator, denominator) a new
/// session may fill when its usual reach does not fit: the rest is for the other groups'
/// sessions.
const SESSION_FILL: (u64, u64) = (15, 16);

/// What [`Session::plan_avoiding`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Avoiding {
    /// The paths of a plan within the budget that keeps off the others.
    Plan(Vec<Vec<u32>>),
    /// No plan within the budget keeps off these sets of paths together (indices in the
    /// sets given; empty when none within the budget exists at all).
    Core(Vec<usize>),
    /// Not settled within the conflicts or the deadline, or no session to ask.
    Unsettled,
}

/// The conflicts [`Sessions::plan_avoiding`] gives the solver. The plans and cores it
/// finds come within a few conflicts (0.00 to 0.15 s on den312d random-1 K = 80 and
/// empty-16-16 random-1 K = 80, groups of 45 to 70 agents), while a call that does not
/// settle costs more than the merge's decision it would save: with 300, 0.7 to 1.5 s
/// each on den312d (a decision of the merged group: 0.15 to 0.6 s), with 2 000, 4.4 to
/// 5.8 s on empty-16-16.
const AVOID_CONFLICTS: i32 = 50;

/// The SAT decisions of successive budgets: with `incremental`, a [`Session`] is kept
/// and decides the next budgets while they are within its reach, the agents that join
/// the core being added to it; otherwise each decision has a fresh session of reach
/// Delta.
///
/// A new session for Delta reaches Delta + Delta / 4 + 2: a wider reach makes a larger
/// encoding, slower to decide the first budget in (at Delta = 0, where a fresh encoding
/// is the shortest paths alone, a reach of 4 took 8.9 s against 1.3 s on
/// random-64-64-10 even-1 with 80 agents), a narrower one rebuilds more often. Measured
/// (CPU s, `--time-limit 30`, loaded machine) against a fixed reach of Delta + 4 and a
/// fresh session per budget: random-64-64-10 even-1 K = 80 2.6 against 9.0 and 6.6 s;
/// den312d even-1 K = 40 proved in 16.4 s, unproven by the other two. Since a session
/// built again replays the cores of the one before ([`CoreLog`]), rebuilding costs the
/// encoding only, and the narrower reach of Delta / 4 + 2 past Delta (it was
/// Delta / 2 + 1) makes each core cheaper: CPU s to the proof under `ulimit -t` (Delta / 2 + 1,
/// Delta / 4 + 2, Delta / 8 + 2): maze-32-32-4 even-1 K = 40 unproven at 20 s (Delta
/// 35), 1735 in 18.8 s, proven within 20 s; room-32-32-4 even-1 K = 40 1101 in 33.4 s
/// with Delta / 4 + 2; room-64-64-8 random-1 K = 40 unproven at 25 s, 2278 in 11.8 and
/// 11.8 s; maze-32-32-4 random-1 K = 20 988 in 9.9, 10.0 and 14.6 s.
pub struct Sessions {
    incremental: bool,
    deadline: Deadline,
    kept: Option<Session>,
    /// The pairwise bounds every session built from now on is given.
    pairs: Vec<Pair>,
    /// Whether each decision first raises the core-guided bound ([`Session::raise`]).
    core_guided: bool,
    /// Whether a budget at or above the raised bound takes the raise's own plan
    /// ([`Sessions::reusing`]).
    reuse: bool,
    /// Whether a new session whose usual reach does not fit the memory reaches as far as
    /// fits rather than Delta alone ([`Sessions::filling`]).
    fill: bool,
    /// Whether the sessions' solvers run in CaDiCaL's `plain` configuration
    /// ([`Sessions::plain`]).
    plain: bool,
    /// Whether each agent's cells reach only what the others leave it
    /// ([`Sessions::own_reaches`]).
    own: bool,
    /// When writing a session's clauses stops ([`Sessions::writing_until`]).
    cut_at: Deadline,
    /// The bound the last decision proved when it answered impossible (0: none beyond
    /// its budget).
    proven: u32,
    /// The cores of the last session used (kept when it is dropped), replayed in the
    /// next one built on its agents or more.
    log: CoreLog,
    /// Cores of other sessions whose agents have joined these ([`Sessions::adopt`]), to
    /// be replayed in the next session used.
    adopted: Vec<CoreLog>,
}

impl Sessions {
    /// No session yet; each gives up at `deadline`.
    pub fn new(incremental: bool, deadline: Deadline) -> Self {
        Sessions {
            incremental,
            deadline,
            kept: None,
            pairs: Vec::new(),
            core_guided: false,
            reuse: false,
            fill: false,
            plain: false,
            own: false,
            cut_at: deadline,
            proven: 0,
            log: CoreLog::default(),
            adopted: Vec::new(),
        }
    }

    /// Sessions that first raise the core-guided bound of their agents
    /// ([`Session::raise`]) before they decide a budget below it.
    pub fn core_guided(incremental: bool, deadline: Deadline) -> Self {
        Sessions {
            core_guided: true,
            ..Sessions::new(incremental, deadline)
        }
    }

    /// These sessions, where with `reuse` a budget at or above the core-guided bound
    /// takes the plan the raise settled on ([`Session::raise`]: the model that met the
    /// bound) instead of asking the solver again under the budget's assumption.
    pub fn reusing(self, reuse: bool) -> Self {
        Sessions { reuse, ..self }
    }

    /// These sessions, where with `fill` (and incremental sessions) a new session whose
    /// usual reach, Delta + Delta / 4 + 2, would pass the memory reaches as many budgets
    /// past Delta as fit in 15/16 of it ([`SESSION_FILL`]), rather than Delta alone.
    ///
    /// Why: a session of reach Delta decides one budget; its raise passes the reach at
    /// the first core, and the next budget builds it again. On ht_chantry random-1 with
    /// 100 agents (`--memory-mib 4096`, 2.75 M variables of room) the group of 37 agents
    /// needed 2.2 to 2.4 M variables at reach Delta and 3.3 M at the usual reach, so from
    /// Delta = 43 on every budget was a new build of 3.3 to 4.8 s, its raise 0.3 to 0.5 s.
    /// The sixteenth left over is for the other groups' sessions: one that does not fit
    /// beside this one drops it ([`super::super::core::Groups`]).
    pub fn filling(self, fill: bool) -> Self {
        Sessions { fill, ..self }
    }

    /// These sessions, their solvers in CaDiCaL's `plain` configuration when `plain`
    /// ([`crate::mapf::sat::plain_solver`]: no preprocessing or inprocessing).
    ///
    /// Why: traced on room-32-32-4 random-1 K = 40 (no time limit), the proof's time went
    /// to single calls of [`Session::raise`] that took seconds with a few hundred
    /// conflicts (a conflict limit of 300 stopped them, one of 1500 did not), the core at
    /// 39 extra steps 31 s of the 37.5 CPU s: the inprocessing of the default
    /// configuration on the incremental formula, not the search. Plain, that row is
    /// proven in 17.1 CPU s.
    pub fn plain(self, plain: bool) -> Self {
        Sessions { plain, ..self }
    }

    /// These sessions, where with `own` each agent's cells reach only the session's reach
    /// less what the others take at least by the pairwise bounds ([`others_least`]; the
    /// module documentation's own reaches).
    ///
    /// Why: a group's encoding holds every agent's cells within the whole reach, while the
    /// pairs between the others already spend most of it: on ht_chantry random-1 with 100
    /// agents (`--memory-mib 4096`) the group of 45 agents at 51 extra steps needed 3.57 M
    /// variables, past the room of 2.79 M, and the proof stopped there at 19.7 s of 30.
    pub fn own_reaches(self, own: bool) -> Self {
        Sessions { own, ..self }
    }

    /// These sessions, their clauses written until `cut_at` (by default their deadline):
    /// a later instant when their SAT calls stop for a while and go on after (the
    /// groups' share of the proof, [`super::super::Whole::AfterGroups`]), so that a session
    /// being written then is finished and kept rather than cut and written again.
    pub fn writing_until(self, cut_at: Deadline) -> Self {
        Sessions { cut_at, ..self }
    }

    /// The reach of a new session on `agents` for `delta` within `max_variables`: the
    /// usual Delta + Delta / 4 + 2 when it fits; with [`Sessions::filling`], else the
    /// widest that fits in [`SESSION_FILL`] of the room; else Delta.
    ///
    /// # Complexity
    /// O(log Delta) counts of [`super::count_variables`].
    fn reach_for(
        &self,
        instance: &Instance<'_>,
        agents: &[usize],
        delta: u32,
        max_variables: u64,
    ) -> u32 {
        let floors = self.floors(agents, agents);
        let count_variables =
            |agents: &[usize], reach: u32| count_own_variables(instance, agents, reach, &floors);
        let wide = delta.saturating_add(delta / 4 + 2);
        if count_variables(agents, wide) <= max_variables {
            return wide;
        }
        let fill = max_variables / SESSION_FILL.1 * SESSION_FILL.0;
        if !self.fill || count_variables(agents, delta) > fill {
            return delta;
        }
        // The count grows with the reach: the widest within `fill`, by bisection
        // (`near` fits, `far` does not).
        let (mut near, mut far) = (delta, wide);
        while far - near > 1 {
            let middle = near + (far - near) / 2;
            if count_variables(agents, middle) <= fill {
                near = middle;
            } else {
                far = middle;
            }
        }
        near
    }

    /// Per agent of `of` (each one of `all`), what the others of `all` take at least
    /// ([`others_least`]) with own reaches, else 0.
    fn floors(&self, all: &[usize], of: &[usize]) -> Vec<u32> {
        if self.own {
            others_least(all, of, &self.pairs)
        } else {
            vec![0; of.len()]
        }
    }

    /// The extra steps the last decision proved every plan takes when it answered
    /// [`Decision::Impossible`] (of the agents decided: a bound for the whole instance
    /// too); 0 when it proved only its own budget impossible.
    pub fn proven(&self) -> u32 {
        self.proven
    }

    /// Sessions as these (incremental or not, core-guided or not, the same deadline),
    /// with no session and no pairwise bounds.
    pub fn fresh(&self) -> Self {
        Sessions {
            core_guided: self.core_guided,
            reuse: self.reuse,
            fill: self.fill,
            plain: self.plain,
            own: self.own,
            cut_at: self.cut_at,
            ..Sessions::new(self.incremental, self.deadline)
        }
    }

    /// Sessions as these (incremental or not, core-guided or not, the same deadline and
    /// pairwise bounds), with no session: for another set of agents.
    pub fn alike(&self) -> Self {
        Sessions {
            pairs: self.pairs.clone(),
            ..self.fresh()
        }
    }

    /// When the decisions give up.
    pub fn deadline(&self) -> Deadline {
        self.deadline
    }

    /// The decisions from now on, in the kept session too, give up at `deadline`.
    pub fn give_up_at(&mut self, deadline: Deadline) {
        self.deadline = deadline;
        if let Some(session) = &mut self.kept {
            session.give_up_at(deadline);
        }
    }

    /// The pairwise bounds given to the sessions.
    pub fn pairs(&self) -> &[Pair] {
        &self.pairs
    }

    /// [`Sessions::pairs`] when `on`, else none.
    pub fn pairs_if(&self, on: bool) -> &[Pair] {
        if on { &self.pairs } else { &[] }
    }

    /// Variables of the kept session (0 when none is kept).
    pub fn variables(&self) -> u64 {
        self.kept.as_ref().map_or(0, Session::variables)
    }

    /// Drops the kept session, to free its memory; its cores stay, to be replayed in the
    /// next one.
    pub fn drop_session(&mut self) {
        if let Some(session) = self.kept.take() {
            self.log = session.log();
        }
    }

    /// Takes over the cores of `other` (sessions on other agents, which are to join
    /// these): they are replayed in the next session used, once it has their agents.
    pub fn adopt(&mut self, mut other: Sessions) {
        other.drop_session();
        self.adopted.push(other.log);
        self.adopted.append(&mut other.adopted);
    }

    /// Gives the pairwise bounds `pairs` ([`super::super::pairwise`]) to every session built
    /// from now on, as clauses (the kept one, if any, is dropped).
    pub fn set_pairs(&mut self, pairs: Vec<Pair>) {
        self.kept = None;
        self.pairs = pairs;
    }

    /// A plan of the agents `agents` with at most `delta` extra steps that keeps off
    /// the paths of `others` ([`Session::plan_avoiding`], within [`AVOID_CONFLICTS`]
    /// conflicts), its paths in the order of `agents`; [`Avoiding::Unsettled`] as well
    /// when the kept session is not one of exactly these agents within that reach (no
    /// session is built for it).
    ///
    /// # Complexity
    /// As [`Session::plan_avoiding`].
    pub fn plan_avoiding(
        &mut self,
        instance: &Instance<'_>,
        agents: &[usize],
        delta: u32,
        others: &[Vec<Vec<u32>>],
    ) -> Avoiding {
        let Some(session) = self.kept.as_mut().filter(|session| {
            session.reach() >= delta
                && session.agents().len() == agents.len()
                && session.agents().iter().all(|a| agents.contains(a))
        }) else {
            return Avoiding::Unsettled;
        };
        match session.plan_avoiding(instance, delta, others, AVOID_CONFLICTS) {
            Avoiding::Plan(paths) => Avoiding::Plan(in_order_of(agents, session.agents(), paths)),
            other => other,
        }
    }

    /// Decides whether the agents `agents` of `instance` (distinct) have a plan with at
    /// most `delta` extra steps, building no encoding of more than `max_variables`
    /// variables: their paths in the order of `agents`.
    ///
    /// # Errors
    /// [`TooLarge`] when even the encoding of reach `delta` would pass `max_variables`.
    ///
    /// # Complexity
    /// O(K x C) to count the variables, then as [`Session::decide`] (and
    /// [`Session::new`] or [`Session::add`] when the kept session lacks the reach or
    /// some agents).
    pub fn decide(
        &mut self,
        instance: &Instance<'_>,
        agents: &[usize],
        delta: u32,
        max_variables: u64,
    ) -> Result<Decision, TooLarge> {
        // A decision small enough to end before CaDiCaL asks its terminate callback
        // would go on past the deadline, one after another: the pairwise bound's pair
        // decisions on maze-128-128-1 with 100 agents ran 9 s past the proof's share.
        if self.deadline.passed() {
            return Ok(Decision::Stopped);
        }
        let kept = self.kept.take().filter(|session| {
            self.incremental
                && session.reach() >= delta
                && session.agents().iter().all(|a| agents.contains(a))
        });
        let session = match kept {
            Some(mut session) => {
                let new: Vec<usize> = agents
                    .iter()
                    .copied()
                    .filter(|a| !session.agents().contains(a))
                    .collect();
                let all: Vec<usize> = session.agents().iter().chain(&new).copied().collect();
                let floors = self.floors(&all, &new);
                let variables = count_own_variables(instance, &new, session.reach(), &floors);
                if session.variables().saturating_add(variables) <= max_variables {
                    session.add(instance, &new);
                    Some(session)
                } else {
                    None
                }
            }
            None => None,
        };
        let mut session = match session {
            Some(session) => session,
            None => {
                let reach = if self.incremental {
                    self.reach_for(instance, agents, delta, max_variables)
                } else {
                    delta
                };
                if reach == delta {
                    let floors = self.floors(agents, agents);
                    let variables = count_own_variables(instance, agents, delta, &floors);
                    if variables > max_variables {
                        return Err(TooLarge { variables });
                    }
                }
                let mut session = Session::configured(
                    instance,
                    agents,
                    reach,
                    self.cut_at,
                    &self.pairs,
                    self.plain,
                    self.own,
                );
                session.give_up_at(self.deadline);
                if self.incremental && !session.cut() {
                    session.replay(&self.log);
                }
                session
            }
        };
        if session.cut() {
            // Nothing decided; the cores found so far stay in the log and the adopted
            // ones wait, for the next session.
            drop_off_the_clock(session, self.deadline);
            return Ok(Decision::Stopped);
        }
        for log in std::mem::take(&mut self.adopted) {
            if self.incremental {
                session.replay(&log);
            }
        }
        self.proven = 0;
        let raised = if self.core_guided {
            session.raise(instance)
        } else {
            0
        };
        let decision = if raised > delta {
            self.proven = raised;
            Decision::Impossible
        } else if let Some(paths) = session
            .settled_within(instance, delta)
            .filter(|_| self.reuse)
        {
            // The raise's last model is already a plan within the budget: asking again
            // under the budget's assumption found one anew (room-32-32-4 even-1 K = 40:
            // 101 such calls, 7.6 of 29 CPU s).
            Decision::Plan(paths)
        } else {
            session.decide(instance, delta)
        };
        let decision = match decision {
            // The session's order to the caller's.
            Decision::Plan(paths) => Decision::Plan(in_order_of(agents, session.agents(), paths)),
            other => other,
        };
        self.log = session.log();
        if self.incremental {
            self.kept = Some(session);
        }
        Ok(decision)
    }
}
