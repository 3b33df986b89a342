//! What serving asks of the operating system: its stop signals (SIGINT, SIGTERM), and enough
//! file descriptors for the connection cap.

use std::io;
use std::sync::Arc;

use super::ShutdownHandle;

/// Listens for SIGINT and SIGTERM (SIGINT only off Unix) and turns each into a stop request.
pub(super) fn spawn_signal_listener(stop: ShutdownHandle) -> io::Result<()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut terminate = signal(SignalKind::terminate())?;
        let mut interrupt = signal(SignalKind::interrupt())?;
        let weak = Arc::downgrade(&stop.0);
        drop(stop);
        tokio::spawn(async move {
            loop {
                let name = tokio::select! {
                    Some(()) = terminate.recv() => "SIGTERM",
                    Some(()) = interrupt.recv() => "SIGINT",
                    else => return,
                };
                let Some(stop) = weak.upgrade() else { return };
                tracing::info!(signal = name, "stop requested");
                stop.send_modify(|n| *n += 1);
            }
        });
    }
    #[cfg(not(unix))]
    {
        let weak = Arc::downgrade(&stop.0);
        drop(stop);
        tokio::spawn(async move {
            while tokio::signal::ctrl_c().await.is_ok() {
                let Some(stop) = weak.upgrade() else { return };
                tracing::info!(signal = "ctrl-c", "stop requested");
                stop.send_modify(|n| *n += 1);
            }
        });
    }
    Ok(())
}

/// The connection cap, lowered to what the descriptor limit allows (after raising the soft
/// limit towards the hard one where needed).
// `rlim_t` is `u64` on some targets and `u32` on others.
#[allow(clippy::unnecessary_cast)]
pub(super) fn connection_cap(wanted: usize) -> usize {
    let wanted = wanted.max(1);
    #[cfg(unix)]
    {
        // Descriptors the process keeps for itself: the listener, logs, files the
        // implementation opens.
        const RESERVE: u64 = 64;
        let needed = wanted as u64 + RESERVE;
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit read and write the struct passed, nothing else.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
                return wanted;
            }
            let soft = limit.rlim_cur as u64;
            if soft >= needed || limit.rlim_cur == libc::RLIM_INFINITY {
                return wanted;
            }
            let hard = limit.rlim_max as u64;
            let raised = if limit.rlim_max == libc::RLIM_INFINITY {
                needed
            } else {
                needed.min(hard)
            };
            let mut new = limit;
            new.rlim_cur = raised as libc::rlim_t;
            let soft = if libc::setrlimit(libc::RLIMIT_NOFILE, &new) == 0 {
                raised
            } else {
                soft
            };
            if soft >= needed {
                return wanted;
            }
            let cap = soft.saturating_sub(RESERVE).max(1) as usize;
            tracing::warn!(
                max_connections = wanted,
                descriptor_limit = soft,
                cap,
                "the descriptor limit is too low for max_connections; serving at most {cap} connections"
            );
            cap
        }
    }
    #[cfg(not(unix))]
    wanted
}
