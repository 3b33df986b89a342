//! Random edit sequences.
