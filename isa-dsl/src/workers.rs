//! Work sharing for one compile: the calling thread and, when the machine
//! has a second core and the input is big enough, one helper thread that
//! lives for the whole compile. Each parallel step is a [`Workers::map_with`]
//! over numbered items; both workers take the next item until none is left, and
//! the results come back in item order, so they never depend on scheduling.
//!
//! One helper for all steps, rather than a thread per step, because starting
//! and joining a thread costs 40-500 us on the 2-core machine, about what a
//! step saves. Between steps the idle worker spins for a short while before it
//! sleeps, so that handing over the next step does not wait for a wake-up.
//! Everything here is safe code: the helper runs jobs that borrow only what
//! outlives the thread scope (see [`crate::pipeline`]).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// A job the helper runs: one worker's share of one step.
type Job<'scope> = Box<dyn FnOnce() + Send + 'scope>;

/// How long a waiting worker spins before it blocks. Longer than the
/// sequential stretches between two steps of a compile (well under 1 ms on
/// `spec/`), short enough not to matter to anything else on the machine.
const SPIN: Duration = Duration::from_millis(2);

/// The calling thread plus at most one helper thread.
pub(crate) struct Workers<'scope> {
    /// Sends jobs to the helper; `None` when everything runs on the caller.
    helper: Option<Sender<Job<'scope>>>,
}

impl<'scope> Workers<'scope> {
    /// Everything on the calling thread.
    pub(crate) fn single() -> Self {
        Workers { helper: None }
    }

    /// The calling thread and one helper in `scope`. The helper ends when the
    /// `Workers` is dropped.
    pub(crate) fn with_helper<'env>(scope: &'scope std::thread::Scope<'scope, 'env>) -> Self {
        let (tx, rx) = mpsc::channel::<Job<'scope>>();
        scope.spawn(move || {
            while let Some(job) = recv_spinning(&rx) {
                job();
            }
        });
        Workers { helper: Some(tx) }
    }

    /// Runs `f(state, i)` for every `i` in `0..n` and returns the results in
    /// order of `i`. Each worker makes its own `state` with `init` (a cache,
    /// say) when it starts on the step. With a helper, both workers take items
    /// until none is left; the caller does not wait for a helper that has not
    /// started yet (it finds nothing left and does nothing).
    pub(crate) fn map_with<S, T, I, F>(&self, n: usize, init: I, f: F) -> Vec<T>
    where
        T: Send + 'scope,
        I: Fn() -> S + Send + Sync + 'scope,
        F: Fn(&mut S, usize) -> T + Send + Sync + 'scope,
    {
        let helper = self.helper.as_ref().filter(|_| n > 1);
        let Some(tx) = helper else {
            let mut state = init();
            return (0..n).map(|i| f(&mut state, i)).collect();
        };
        let step = Arc::new(Step { init, f, n, next: AtomicUsize::new(0), claimed: AtomicBool::new(false) });
        let (done_tx, done_rx) = mpsc::channel();
        let theirs = Arc::clone(&step);
        let sent = tx.send(Box::new(move || {
            // Claimed already: the caller finished every item without us.
            if !theirs.claimed.swap(true, Ordering::AcqRel) {
                let _ = done_tx.send(theirs.run());
            }
        }));
        let mut results: Vec<Option<T>> = (0..n).map(|_| None).collect();
        for (i, t) in step.run() {
            results[i] = Some(t);
        }
        if sent.is_ok() && step.claimed.swap(true, Ordering::AcqRel) {
            // The helper started: wait for the items it took. It only fails to
            // answer when it panicked, which is a bug; say so here.
            let done = recv_spinning(&done_rx).expect("the helper thread panicked");
            for (i, t) in done {
                results[i] = Some(t);
            }
        }
        results.into_iter().map(|r| r.expect("every item of a step runs once")).collect()
    }

    /// Runs `a` on the calling thread and `b` on the helper, and returns both
    /// results. When the helper has not started on `b` by the time `a` is
    /// done, the calling thread runs `b` itself.
    pub(crate) fn join<A, B, RA, RB>(&self, a: A, b: B) -> (RA, RB)
    where
        A: FnOnce() -> RA,
        B: FnOnce() -> RB + Send + 'scope,
        RB: Send + 'scope,
    {
        let Some(tx) = &self.helper else {
            let ra = a();
            return (ra, b());
        };
        let slot = Arc::new(Mutex::new(Some(b)));
        let (done_tx, done_rx) = mpsc::channel();
        let theirs = Arc::clone(&slot);
        // If the helper is gone (it panicked earlier), `b` stays in the slot.
        let _ = tx.send(Box::new(move || {
            let b = theirs.lock().unwrap_or_else(PoisonError::into_inner).take();
            if let Some(b) = b {
                let _ = done_tx.send(b());
            }
        }));
        let ra = a();
        let mine = slot.lock().unwrap_or_else(PoisonError::into_inner).take();
        let rb = match mine {
            Some(b) => b(),
            None => recv_spinning(&done_rx).expect("the helper thread panicked"),
        };
        (ra, rb)
    }

    /// Runs `f(i)` for every `i` in `0..n`, in order of `i` (see [`Workers::map_with`]).
    pub(crate) fn map<T, F>(&self, n: usize, f: F) -> Vec<T>
    where
        T: Send + 'scope,
        F: Fn(usize) -> T + Send + Sync + 'scope,
    {
        self.map_with(n, || (), move |_, i| f(i))
    }
}

/// One step shared between the workers.
struct Step<I, F> {
    init: I,
    f: F,
    n: usize,
    /// The next item to take.
    next: AtomicUsize,
    /// Set by whichever comes first: the helper starting, or the caller
    /// deciding, after the last item, whether to wait for the helper.
    claimed: AtomicBool,
}

impl<I, F> Step<I, F> {
    /// Takes items until none is left; returns them with their results.
    fn run<S, T>(&self) -> Vec<(usize, T)>
    where
        I: Fn() -> S,
        F: Fn(&mut S, usize) -> T,
    {
        let mut state = (self.init)();
        let mut out = Vec::new();
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            if i >= self.n {
                return out;
            }
            out.push((i, (self.f)(&mut state, i)));
        }
    }
}

/// Receives the next message, spinning for up to [`SPIN`] before blocking.
/// `None` when the sender is gone.
fn recv_spinning<T>(rx: &Receiver<T>) -> Option<T> {
    let start = Instant::now();
    loop {
        for _ in 0..64 {
            match rx.try_recv() {
                Ok(v) => return Some(v),
                Err(TryRecvError::Disconnected) => return None,
                Err(TryRecvError::Empty) => std::hint::spin_loop(),
            }
        }
        if start.elapsed() > SPIN {
            return rx.recv().ok();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_item_order_with_and_without_a_helper() {
        let expect: Vec<usize> = (0..1000).map(|i| i * i).collect();
        assert_eq!(Workers::single().map(1000, |i| i * i), expect);
        std::thread::scope(|s| {
            let workers = Workers::with_helper(s);
            for n in [0, 1, 2, 7, 1000] {
                assert_eq!(workers.map(n, |i| i * i), expect[..n]);
            }
        });
    }

    /// Blocks the calling thread (whose worker calls it) until an item has
    /// run on another thread, or 10 s have passed: whether the helper
    /// takes items then does not hang on how the OS schedules the two.
    fn wait_for_helper(caller: std::thread::ThreadId, helper_ran: &AtomicUsize) {
        if std::thread::current().id() == caller {
            let until = std::time::Instant::now() + Duration::from_secs(10);
            while helper_ran.load(Ordering::Acquire) == 0 && std::time::Instant::now() < until {
                std::thread::sleep(Duration::from_micros(50));
            }
        } else {
            helper_ran.fetch_add(1, Ordering::Release);
        }
    }

    #[test]
    fn both_workers_take_items_and_each_item_runs_once() {
        let runs: Vec<AtomicUsize> = (0..200).map(|_| AtomicUsize::new(0)).collect();
        let helper_ran = AtomicUsize::new(0);
        let caller = std::thread::current().id();
        std::thread::scope(|s| {
            let workers = Workers::with_helper(s);
            let (runs, helper_ran) = (&runs, &helper_ran);
            workers.map(200, move |i| {
                runs[i].fetch_add(1, Ordering::Relaxed);
                wait_for_helper(caller, helper_ran);
            });
        });
        assert!(runs.iter().all(|r| r.load(Ordering::Relaxed) == 1));
        assert!(helper_ran.load(Ordering::Relaxed) > 0, "the helper took no item");
    }

    #[test]
    fn join_returns_both_results_wherever_they_ran() {
        assert_eq!(Workers::single().join(|| 1, || 2), (1, 2));
        std::thread::scope(|s| {
            let workers = Workers::with_helper(s);
            for k in 0..100 {
                let slow = Duration::from_micros(k % 3 * 100);
                assert_eq!(workers.join(|| std::thread::sleep(slow), move || k), ((), k));
            }
        });
    }

    #[test]
    fn a_panic_on_the_helper_reaches_the_caller() {
        let helper_ran = AtomicUsize::new(0);
        let caller = std::thread::current().id();
        let r = std::panic::catch_unwind(|| {
            std::thread::scope(|s| {
                let workers = Workers::with_helper(s);
                workers.map(100, |_| {
                    wait_for_helper(caller, &helper_ran);
                    // Only the helper's items fail.
                    assert!(std::thread::current().id() == caller, "an item on the helper fails");
                })
            })
        });
        assert!(helper_ran.load(Ordering::Relaxed) > 0, "the helper took no item");
        assert!(r.is_err(), "the helper's panic was lost");
    }
}
