//! Snapshots of what an editor gets.
