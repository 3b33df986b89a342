//! From `regex-automata`'s DFA to the runtime's table: the states reachable from the start
//! state, walked over the DFA's byte classes (bytes the DFA never tells apart), minimized when
//! small, numbered (the dead state 0, the match states last, so the runtime tells a match by
//! comparing ids) and encoded with the fewest columns.
//!
//! Every order here is canonical (breadth first from the start state, bytes in increasing
//! order, the end of the text last), so a pattern's table depends only on its language, not
//! on how the DFA happened to number its states.

use std::collections::{BTreeMap, VecDeque};

use regex_automata::Anchored;
use regex_automata::dfa::Automaton as _;
use regex_automata::util::primitives::StateID;
use regex_automata::util::start;

use super::{Dfa, HEADER, LIMITATION, PatternError, error_chain, too_large};

/// The states reachable from the start state, in the order a breadth-first walk meets them.
pub(super) struct Walk {
    /// The DFA's class of each byte.
    class_of: [u8; 256],
    /// `next[s][c]`: the state after a byte of class `c` in state `s`; the last column after
    /// the end of the text.
    next: Vec<Vec<u32>>,
    /// Which states are entered when a match ends.
    matching: Vec<bool>,
    /// The state no match can follow, when one is reached.
    dead: Option<u32>,
}

/// One entry of the map from the DFA's state ids to the walk's: the id it stands for, checked,
/// so two ids never share an entry unnoticed.
type Slot = Option<(StateID, u32)>;

impl Walk {
    /// The walk over `dfa`'s states.
    pub(super) fn new(dfa: &Dfa) -> Result<Walk, PatternError> {
        let start = dfa
            .start_state(&start::Config::new().anchored(Anchored::No))
            .map_err(|e| PatternError::Unmatchable {
                reason: error_chain(&e),
                hint: LIMITATION.into(),
            })?;
        let classes = dfa.byte_classes();
        let class_of: [u8; 256] = std::array::from_fn(|b| classes.get(b as u8));
        // A byte of each class, the classes in the order of their first byte.
        let mut representatives: Vec<u8> = Vec::new();
        let mut column_of = vec![u32::MAX; classes.alphabet_len()];
        for b in 0..=255u8 {
            let c = usize::from(class_of[usize::from(b)]);
            if column_of[c] == u32::MAX {
                column_of[c] = representatives.len() as u32;
                representatives.push(b);
            }
        }
        let class_of = class_of.map(|c| column_of[usize::from(c)] as u8);
        // The DFA's state ids are multiples of its stride: one slot per state.
        let shift = dfa.stride2();
        let mut slots: Vec<Slot> = Vec::new();
        let mut walk = Walk {
            class_of,
            next: Vec::new(),
            matching: Vec::new(),
            dead: None,
        };
        let mut queue: VecDeque<StateID> = VecDeque::new();
        let mut visit = |s: StateID, walk: &mut Walk, queue: &mut VecDeque<StateID>| {
            let i = s.as_usize() >> shift;
            if slots.len() <= i {
                slots.resize(i + 1, None);
            }
            match slots[i] {
                Some((id, n)) if id == s => Ok(n),
                Some(_) => Err(PatternError::Unmatchable {
                    reason: "its automaton numbers its states in an unexpected way".into(),
                    hint: LIMITATION.into(),
                }),
                None => {
                    let n = walk.matching.len() as u32;
                    slots[i] = Some((s, n));
                    walk.matching.push(dfa.is_match_state(s));
                    if dfa.is_dead_state(s) {
                        walk.dead = Some(n);
                    }
                    queue.push_back(s);
                    Ok(n)
                }
            }
        };
        visit(start, &mut walk, &mut queue)?;
        while let Some(s) = queue.pop_front() {
            if dfa.is_quit_state(s) {
                return Err(PatternError::Unmatchable {
                    reason: "its automaton gives up on some texts".into(),
                    hint: LIMITATION.into(),
                });
            }
            let mut row = Vec::with_capacity(representatives.len() + 1);
            for &b in &representatives {
                row.push(visit(dfa.next_state(s, b), &mut walk, &mut queue)?);
            }
            row.push(visit(dfa.next_eoi_state(s), &mut walk, &mut queue)?);
            walk.next.push(row);
        }
        Ok(walk)
    }

    /// Merges the states no text tells apart (Moore's partition refinement: states start
    /// apart by whether they match, and part further while their successors lie in different
    /// blocks), numbering the blocks in the walk's order.
    pub(super) fn minimize(&mut self) {
        let states = self.next.len();
        let width = self.next.first().map_or(0, Vec::len) + 1;
        let mut block: Vec<u32> = self.matching.iter().map(|&m| u32::from(m)).collect();
        let mut blocks = renumber(&mut block);
        // Each state's signature, side by side: its block, then its successors' blocks.
        let mut signatures = vec![0u32; states * width];
        let mut order: Vec<usize> = (0..states).collect();
        loop {
            for (s, row) in self.next.iter().enumerate() {
                let signature = &mut signatures[s * width..(s + 1) * width];
                signature[0] = block[s];
                for (slot, &t) in signature[1..].iter_mut().zip(row) {
                    *slot = block[t as usize];
                }
            }
            let of = |s: usize| &signatures[s * width..(s + 1) * width];
            order.sort_unstable_by(|&a, &b| of(a).cmp(of(b)).then(a.cmp(&b)));
            // States with equal signatures are next to each other: one block each run.
            let mut refined = vec![0u32; states];
            let mut count = 0u32;
            for (i, &s) in order.iter().enumerate() {
                if i > 0 && of(order[i - 1]) != of(s) {
                    count += 1;
                }
                refined[s] = count;
            }
            let count = renumber(&mut refined);
            block = refined;
            if count == blocks {
                break;
            }
            blocks = count;
        }
        // One state per block: its first in the walk, which the walk met first.
        let mut first: Vec<Option<usize>> = vec![None; blocks];
        for (s, &b) in block.iter().enumerate() {
            first[b as usize].get_or_insert(s);
        }
        let first: Vec<usize> = first.into_iter().flatten().collect();
        self.next = first
            .iter()
            .map(|&s| self.next[s].iter().map(|&t| block[t as usize]).collect())
            .collect();
        self.matching = first.iter().map(|&s| self.matching[s]).collect();
        // The state no match can follow: one that matches nothing and leads only to itself.
        self.dead = (0..blocks as u32)
            .find(|&b| !self.matching[b as usize] && self.next[b as usize].iter().all(|&t| t == b));
    }

    /// The table: the dead state 0 (one leading nowhere when the walk met none), the states
    /// that are no match, the match states, each group in the walk's order; classes of bytes
    /// that no state tells apart share a column.
    pub(super) fn encode(&self) -> Result<Vec<u8>, PatternError> {
        let states = self.next.len();
        let spare = usize::from(self.dead.is_none());
        if states + spare > usize::from(u16::MAX) {
            return Err(too_large(format!(
                "its automaton has {} states, more than the {} a table can number",
                states + spare,
                u16::MAX
            )));
        }
        let dead = self.dead.map(|d| d as usize);
        let plain = (0..states).filter(|&s| Some(s) != dead && !self.matching[s]);
        let matches = (0..states).filter(|&s| Some(s) != dead && self.matching[s]);
        // `order[n]`: the walk's state numbered `n`, `None` for a spare dead state.
        let mut order: Vec<Option<usize>> = vec![dead];
        order.extend(plain.map(Some));
        let first_match = order.len() as u16;
        order.extend(matches.map(Some));
        let mut id = vec![0u16; states];
        for (n, s) in order.iter().enumerate() {
            if let Some(s) = s {
                id[*s] = n as u16;
            }
        }
        // Columns of the walk that lead every state alike are one column of the table.
        let width = self.next.first().map_or(1, Vec::len);
        let mut columns: BTreeMap<Vec<u16>, u8> = BTreeMap::new();
        let mut merged = Vec::with_capacity(width);
        let mut kept: Vec<usize> = Vec::new();
        for c in 0..width - 1 {
            let column: Vec<u16> = self.next.iter().map(|row| id[row[c] as usize]).collect();
            let n = columns.len() as u8;
            merged.push(*columns.entry(column).or_insert_with(|| {
                kept.push(c);
                n
            }));
        }
        kept.push(width - 1);
        let wide = order.len() > 256;
        let mut out = Vec::with_capacity(HEADER + order.len() * kept.len() * 2);
        out.push(if wide { 2 } else { 1 });
        out.extend((kept.len() as u16).to_le_bytes());
        out.extend(id[0].to_le_bytes());
        out.extend(first_match.to_le_bytes());
        out.extend(self.class_of.map(|c| merged[usize::from(c)]));
        for s in &order {
            for &c in &kept {
                let to = s.map_or(0, |s| id[self.next[s][c] as usize]);
                if wide {
                    out.extend(to.to_le_bytes());
                } else {
                    out.push(to as u8);
                }
            }
        }
        Ok(out)
    }
}

/// Numbers the blocks `0..` in the order of their first state; the number of blocks.
fn renumber(block: &mut [u32]) -> usize {
    let mut new = vec![u32::MAX; block.iter().max().map_or(0, |&b| b as usize + 1)];
    let mut count = 0;
    for b in block.iter_mut() {
        let slot = &mut new[*b as usize];
        if *slot == u32::MAX {
            *slot = count;
            count += 1;
        }
        *b = *slot;
    }
    count as usize
}
