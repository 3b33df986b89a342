//! Loads specs with a capped heap: the child process of `mrds_tests::capped::load_capped`
//! (which describes the protocol). An allocation that would hold more than
//! `mrds_tests::capped::HEAP_CAP` at once fails, which aborts the process.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::{Read, Write};
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};

use mrds_tests::capped::{HEAP_CAP, Loaded, Outcome, Spec};

/// The system allocator, refusing to hold more than [`HEAP_CAP`] at once.
struct Capped;

/// The heap held now.
static HELD: AtomicUsize = AtomicUsize::new(0);
/// The most heap held since it was last reset.
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// Counts `size` more bytes held, unless that goes over the cap.
fn take(size: usize) -> bool {
    let held = HELD.fetch_add(size, Ordering::Relaxed) + size;
    if held > HEAP_CAP {
        HELD.fetch_sub(size, Ordering::Relaxed);
        return false;
    }
    PEAK.fetch_max(held, Ordering::Relaxed);
    true
}

fn give_back(size: usize) {
    HELD.fetch_sub(size, Ordering::Relaxed);
}

// SAFETY: every call goes to the system allocator with the caller's arguments; the counting
// around it only decides whether to make the call.
unsafe impl GlobalAlloc for Capped {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !take(layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: as the caller of `alloc` promises.
        let p = unsafe { System.alloc(layout) };
        if p.is_null() {
            give_back(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !take(layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: as the caller of `alloc_zeroed` promises.
        let p = unsafe { System.alloc_zeroed(layout) };
        if p.is_null() {
            give_back(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as the caller of `dealloc` promises.
        unsafe { System.dealloc(ptr, layout) };
        give_back(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let old = layout.size();
        if new_size > old && !take(new_size - old) {
            return std::ptr::null_mut();
        }
        // SAFETY: as the caller of `realloc` promises.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        match (p.is_null(), new_size > old) {
            (true, true) => give_back(new_size - old),
            (false, false) => give_back(old - new_size),
            _ => {}
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Capped = Capped;

fn main() -> ExitCode {
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        eprintln!("mrds-load-capped: cannot read the specs: {e}");
        return ExitCode::FAILURE;
    }
    let specs: Vec<Spec> = match serde_json::from_slice(&input) {
        Ok(specs) => specs,
        Err(e) => {
            eprintln!("mrds-load-capped: the input is not a list of specs: {e}");
            return ExitCode::FAILURE;
        }
    };
    drop(input);
    let mut report = Vec::new();
    for spec in &specs {
        eprintln!("loading {}", spec.name);
        PEAK.store(HELD.load(Ordering::Relaxed), Ordering::Relaxed);
        let outcome = match panic::catch_unwind(AssertUnwindSafe(|| {
            mrds_spec::load_sources(&spec.sources)
        })) {
            Ok(Ok(_)) => Outcome::Loaded,
            Ok(Err(diagnostics)) => Outcome::Refused {
                count: diagnostics.len(),
                text: diagnostics.to_string(),
            },
            Err(payload) => Outcome::Panicked(
                payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "(a panic without text)".to_owned()),
            ),
        };
        report.push(Loaded {
            name: spec.name.clone(),
            outcome,
            peak_heap: PEAK.load(Ordering::Relaxed),
        });
    }
    let mut out = std::io::stdout().lock();
    match serde_json::to_writer(&mut out, &report).map(|()| out.flush()) {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) => {
            eprintln!("mrds-load-capped: cannot write the report: {e}");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("mrds-load-capped: cannot write the report: {e}");
            ExitCode::FAILURE
        }
    }
}
