//! The values of tolerant value sets that decoded into `Unknown`, told by the sets' own
//! `Deserialize` impls ([`value_set!`](crate::value_set)) to a client noticing drift on the
//! same thread. Reading a value-set field through its own, unwrapped `Deserialize` keeps the
//! client's decoding as fast as without noticing; this is how the noticing pass still learns
//! of the values it did not know. Whole numbers written as decimals (`12.0`) that an integer
//! field read ([`crate::whole_number`]) are told the same way, counted only.
//!
//! Costs nothing for a known value, and a look at a thread-local flag for an unknown one when
//! no client is listening; the listening pass reads a counter before and after each value-set
//! field (thread-locals without destructors: a load each).

use std::cell::{Cell, RefCell};

/// The most distinct unknown values of one field one answer keeps.
const MAX_TOLD: usize = 8;

thread_local! {
    /// A noticing decode runs on this thread.
    static LISTENING: Cell<bool> = const { Cell::new(false) };
    /// Unknown values told while listening.
    static COUNT: Cell<u64> = const { Cell::new(0) };
    /// The first distinct ones since they were last taken.
    static VALUES: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    /// Whole numbers written as decimals read while listening.
    static WHOLE: Cell<u64> = const { Cell::new(0) };
}

/// A whole number written as a decimal, read by an integer field (called by
/// [`crate::whole_number`]).
pub(crate) fn whole_number() {
    if LISTENING.try_with(Cell::get).unwrap_or(false) {
        WHOLE.with(|c| c.set(c.get().saturating_add(1)));
    }
}

/// A value of a tolerant value set that the spec does not list (called by the generated
/// value sets' decoding; not part of the API).
#[doc(hidden)]
pub fn unknown_value(value: &str) {
    if !LISTENING.try_with(Cell::get).unwrap_or(false) {
        return;
    }
    COUNT.with(|c| c.set(c.get().saturating_add(1)));
    let _ = VALUES.try_with(|values| {
        if let Ok(mut values) = values.try_borrow_mut()
            && values.len() < MAX_TOLD
            && !values.iter().any(|v| v == value)
        {
            values.push(value.to_string());
        }
    });
}

/// Listening on this thread while it lives (a noticing decode); put back as it was when
/// dropped, however the decode ends.
#[cfg(feature = "drift")]
pub(crate) struct Listening {
    before: bool,
}

#[cfg(feature = "drift")]
impl Listening {
    pub(crate) fn start() -> Self {
        let _ = VALUES.try_with(|v| v.borrow_mut().clear());
        Self {
            before: LISTENING.with(|l| l.replace(true)),
        }
    }

    /// The number of unknown values told so far on this thread.
    #[inline(always)]
    pub(crate) fn count(&self) -> u64 {
        COUNT.with(Cell::get)
    }

    /// The number of whole numbers written as decimals told so far on this thread.
    pub(crate) fn whole_numbers(&self) -> u64 {
        WHOLE.with(Cell::get)
    }

    /// The values told since they were last taken.
    pub(crate) fn take_values(&self) -> Vec<String> {
        VALUES
            .try_with(|v| std::mem::take(&mut *v.borrow_mut()))
            .unwrap_or_default()
    }
}

#[cfg(feature = "drift")]
impl Drop for Listening {
    fn drop(&mut self) {
        LISTENING.with(|l| l.set(self.before));
    }
}
